import { useSyncExternalStore } from 'react';

/** A touch screen as the main pointer: no keyboard shortcut is worth telling about there. */
export const COARSE_POINTER = '(pointer: coarse)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(COARSE_POINTER);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isCoarse = () => typeof window.matchMedia === 'function' && window.matchMedia(COARSE_POINTER).matches;

/** True while the main pointer is a finger (phones, tablets). */
export function useCoarsePointer(): boolean {
  return useSyncExternalStore(subscribe, isCoarse, () => false);
}
