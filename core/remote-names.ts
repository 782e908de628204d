/**
 * Remote accounts (people on other fediverse servers) are named `name@host` here: a local name can
 * never hold an `@`, so the name alone tells them apart, wherever only the name is at hand (a
 * comment's author, a notification, a list of likes).
 */

/** A remote account's name split into its name on its server and the server's host; null for a local name. */
export function remoteNameOf(username: string): { name: string; host: string } | null {
  const at = username.indexOf('@');
  if (at <= 0 || at === username.length - 1) return null;
  return { name: username.slice(0, at), host: username.slice(at + 1) };
}

/** The original's page, when it is a web address: another scheme a remote server wrote is never offered as a link. */
export const webUrlOf = (url: string | null | undefined): string | null => (url && /^https?:\/\//i.test(url) ? url : null);
