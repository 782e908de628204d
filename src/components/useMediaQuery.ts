import { useCallback, useSyncExternalStore } from 'react';

const matches = (query: string) => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;

/** Whether a media query matches now, redrawing the caller when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => matches(query), () => false);
}

/** A touch screen as the main pointer: no keyboard shortcut is worth telling about there. */
export const COARSE_POINTER = '(pointer: coarse)';

/** True while the main pointer is a finger (phones, tablets). */
export const useCoarsePointer = (): boolean => useMediaQuery(COARSE_POINTER);
