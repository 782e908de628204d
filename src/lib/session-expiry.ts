import { forgetPrivateMedia } from './media-cache';
import { getSession, subscribeSession } from './session-store';

/**
 * Private-group images must not outlive the session that could see them: once the server refuses
 * the session (now, or before this page load), they leave the media cache. The account's database
 * stays, for its next login. Answers a function that stops listening.
 */
export function startSessionExpiry(): () => void {
  let expired = false;
  const check = () => {
    const now = !!getSession().expired;
    // A browser without Cache Storage here (private mode) has nothing to forget.
    if (now && !expired) void forgetPrivateMedia().catch(() => 0);
    expired = now;
  };
  check();
  return subscribeSession(check);
}
