import { useEffect, useRef } from 'react';
import { NetworkError, isSessionRefused } from './api/client';
import { toast } from './toast';

/**
 * Whether a failed load is for its screen to report: not one that got no answer (the screen says
 * what it lacks offline), nor one the server refused for the session (the shell's notice says so).
 */
export const reportableFailure = (error: unknown): boolean =>
  !!error && !(error instanceof NetworkError) && !isSessionRefused(error);

/** Reports each reportable failed load once, by an error toast saying `message(error)`. */
export function useFailureToast(error: unknown, message: (error: unknown) => string): void {
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!reportableFailure(error) || reported.current === error) return;
    reported.current = error;
    toast.error(message(error));
  }, [error, message]);
}
