/**
 * Absolute addresses of this instance's pages and media, made many times a page (a dozen per
 * status of a client API timeline, each link of a post's HTML): the URL parser is asked only when
 * joining by hand could give something else than it would.
 */

/**
 * A path from the root made only of characters a URL keeps as written, with no dot segment to
 * resolve: the URL parser would give it back unchanged. (A quote is left out: a query encodes it.)
 */
const PLAIN_PATH = /^\/(?!\/)[\w\-.~!$&()*+,;=:@%/?#]*$/u;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/u;

/** The last origin asked about, and whether the parser gives it back as written with nothing after it (a host, no path). */
let lastOrigin = '';
let lastOriginPlain = false;

function isPlainOrigin(origin: string): boolean {
  if (origin !== lastOrigin) {
    const parsed = URL.parse(`${origin}/`);
    lastOriginPlain = parsed !== null && parsed.pathname === '/' && parsed.href === `${origin}/`;
    lastOrigin = origin;
  }
  return lastOriginPlain;
}

/**
 * An address of this instance as an absolute URL: `url` is a path from the root, or already
 * absolute (media in a bucket, a remote account's page), as `new URL(url, origin)` resolves it.
 */
export function absolute(origin: string, url: string): string {
  if (PLAIN_PATH.test(url) && !DOT_SEGMENT.test(url) && isPlainOrigin(origin)) return `${origin}${url}`;
  return new URL(url, `${origin}/`).href;
}
