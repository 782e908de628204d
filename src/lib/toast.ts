/**
 * Toasts: info (yellow) or error (red), shown about 3 s. A tiny store, so code outside
 * React (the outbox, the API client) can raise one and the shell renders them.
 */
export type ToastKind = 'info' | 'error';
export interface Toast {
  id: number;
  kind: ToastKind;
  /** A translation key (`error/...`, `info/...` or a UI key) and its interpolation values. */
  message: string;
  values?: Record<string, string | number>;
}

type Listener = (toasts: readonly Toast[]) => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener(toasts);
}

export function showToast(kind: ToastKind, message: string, values?: Record<string, string | number>): number {
  const id = nextId++;
  toasts = [...toasts, { id, kind, message, ...(values ? { values } : {}) }];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = (): readonly Toast[] => toasts;

export const toast = {
  info: (message: string, values?: Record<string, string | number>) => showToast('info', message, values),
  error: (message: string, values?: Record<string, string | number>) => showToast('error', message, values),
};
