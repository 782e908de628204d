import { forgetPrivateMedia } from './media-cache';
import { getSession, subscribeSession } from './session-store';

/**
 * Private-group images must not outlive the session that could see them: once the server refuses
 * the session, or there is none (now, or before this page load: a session cleared without the
 * app's logout), they leave the media cache. The account's database stays, for its next login.
 * Answers a function that stops listening.
 */
export function startSessionExpiry(): () => void {
  let ended = false;
  const check = () => {
    const session = getSession();
    const now = !!session.expired || !session.token;
    // A browser without Cache Storage here (private mode) has nothing to forget.
    if (now && !ended) void forgetPrivateMedia().catch(() => 0);
    ended = now;
  };
  check();
  return subscribeSession(check);
}
