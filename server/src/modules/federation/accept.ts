/** The media types an ActivityPub document is asked for with. */
const ACTIVITY_TYPES = new Set(['application/activity+json', 'application/ld+json']);

/**
 * Whether an Accept header prefers an ActivityPub document to a page: one of its types is asked for
 * with a higher weight than text/html (a browser's `*` never counts as asking for one).
 */
export function prefersActivityJson(accept: string | undefined): boolean {
  let activity = 0;
  let html = 0;
  for (const part of (accept ?? '').split(',')) {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const weight = params.find((param) => param.startsWith('q='));
    const q = weight ? Number(weight.slice(2)) || 0 : 1;
    if (ACTIVITY_TYPES.has(type)) activity = Math.max(activity, q);
    else if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, q);
  }
  return activity > html;
}
