import { useSyncExternalStore } from 'react';

/** Relative times are redrawn this often; "now" is rounded up to the step so it stays stable. */
const STEP_MS = 15_000;

const read = () => Math.ceil(Date.now() / STEP_MS) * STEP_MS;

function subscribe(onChange: () => void): () => void {
  const timer = setInterval(onChange, STEP_MS);
  return () => clearInterval(timer);
}

/** The current time for rendering relative times (pure during render, ticking every 15 s). */
export function useNow(): number {
  return useSyncExternalStore(subscribe, read, read);
}
