/**
 * The name of a local user an address names other than by its actor's: the profile's page
 * (`<public URL>/u/<name>`, from which other servers are sent on to the actor) or the handle as an
 * `acct:` URI (`acct:name@<host>`). Servers put either in a Mention's `href` or among a Note's
 * addressees. Null for any other address; whether such a user exists is the caller's to ask.
 */
export function localUserNameIn(publicUrl: string, uri: URL): string | null {
  const own = new URL(publicUrl);
  let name: string | undefined;
  if (uri.protocol === 'acct:') {
    const at = uri.pathname.lastIndexOf('@');
    if (at > 0 && uri.pathname.slice(at + 1).toLowerCase() === own.host) name = uri.pathname.slice(0, at);
  } else if (uri.origin === own.origin) {
    // The profile's path as appPaths.user writes it, a final slash allowed.
    name = /^\/u\/([^/]+)\/?$/.exec(uri.pathname)?.[1];
  }
  if (!name) return null;
  try {
    return decodeURIComponent(name);
  } catch {
    return null;
  }
}
