import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router-dom';
import { authApi } from '#core/api/auth';
import { callApi } from '../../lib/api/client';
import { useSession } from '../../lib/session';
import { loginReturningTo } from '../../components/login-return';

/** Tokens the server already accepted in this page load: the test call runs once per token. */
const accepted = new Set<string>();

export type GuardState = 'checking' | 'ok' | 'redirecting';

/**
 * The auth guard: a visitor opening a guarded page (a link in a mail, a bookmark) is asked to log
 * in and brought back to it; a session ended on the page (a logout) leaves for /feed. The page renders while POST /auth/test
 * runs, so a guarded screen works offline: when the server cannot be reached the stored session is
 * trusted. A refusal marks the session expired (the API client does, for any call): the page stays,
 * reading what this device saved, and the shell offers the login.
 */
export function useAuthGuard(): { isLoggedIn: boolean; state: GuardState } {
  const { token, expired } = useSession();
  const navigate = useNavigate();
  // Leaving already (a password change ends the session and goes to the login page, whose code may
  // still be loading): the guard does not send the visitor elsewhere meanwhile.
  const leaving = useNavigation().state !== 'idle';
  const [checked, setChecked] = useState<string | null>(null);
  const location = useLocation();
  // Whether the page opened without a session, rather than losing it later.
  const openedAsVisitor = useRef(!token);

  useEffect(() => {
    if (!token) {
      if (!leaving) void navigate(openedAsVisitor.current ? loginReturningTo(location) : '/feed', { replace: true });
      return;
    }
    // A session the server refused is not asked about again: only a new login can change that.
    if (expired || accepted.has(token)) return;
    const controller = new AbortController();
    callApi(authApi.test, {}, { signal: controller.signal }).then(
      () => {
        accepted.add(token);
        setChecked(token);
      },
      // Offline or refused, the page stays: a refusal was noted by the API client.
      () => undefined,
    );
    return () => controller.abort();
  }, [token, expired, navigate, leaving, location]);

  if (!token) return { isLoggedIn: false, state: 'redirecting' };
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
