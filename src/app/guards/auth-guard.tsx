import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { authApi } from '#core/api/auth';
import { ApiError, callApi } from '../../lib/api/client';
import { clearSession, useSession } from '../../lib/session';
import { forgetPrivateMedia } from '../../../sw/media-cache';

/** Tokens the server already accepted in this page load: the test call runs once per token. */
const accepted = new Set<string>();

export type GuardState = 'checking' | 'ok' | 'redirecting';

/**
 * The auth guard and no token sends the visitor to /feed; a failing
 * POST /auth/test sends them to /login. The page renders while the check runs, so a guarded screen
 * works offline: when the server cannot be reached the stored session is trusted.
 */
export function useAuthGuard(): { isLoggedIn: boolean; state: GuardState } {
  const { token } = useSession();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const [checked, setChecked] = useState<string | null>(null);
  const sentToLogin = useRef(false);

  useEffect(() => {
    if (sentToLogin.current) return;
    if (!token) {
      void navigate('/feed', { replace: true });
      return;
    }
    if (accepted.has(token)) return;
    const controller = new AbortController();
    callApi(authApi.test, {}, { signal: controller.signal }).then(
      () => {
        accepted.add(token);
        setChecked(token);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        // Only the server's refusal ends the session; no answer at all (offline) or a server fault does not.
        if (err instanceof ApiError && err.status < 500) {
          sentToLogin.current = true;
          setFailed(true);
          void navigate('/login', { replace: true });
          // A refused token is over: without this the login page would send the user back to /feed.
          clearSession();
          // As at logout, private-group images must not outlive the session that could see them.
          void forgetPrivateMedia().catch(() => 0);
        }
      },
    );
    return () => controller.abort();
  }, [token, navigate]);

  if (!token || failed) return { isLoggedIn: false, state: 'redirecting' };
  return { isLoggedIn: true, state: accepted.has(token) || checked === token ? 'ok' : 'checking' };
}

/** Renders its children for a logged-in user, redirecting as useAuthGuard says otherwise. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useAuthGuard();
  if (state === 'redirecting') return null;
  return <>{children}</>;
}

/** Forgets accepted tokens (tests, logout). */
export function resetAuthGuard(): void {
  accepted.clear();
}
