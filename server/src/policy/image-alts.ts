/**
 * The descriptions (alt texts) of a post's or comment's images, stored on its row as a JSON list
 * in image order. Reading always answers one entry per image, '' where there is none, so a reply's
 * `alts` lines up with its `media`.
 */

function parse(stored: string | null | undefined): unknown[] {
  try {
    const list: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The stored list read as `count` descriptions; anything unreadable counts as none. */
export function readImageAlts(stored: string | null | undefined, count: number): string[] {
  const list = parse(stored);
  return Array.from({ length: count }, (_, index) => {
    const alt = list[index];
    return typeof alt === 'string' ? alt : '';
  });
}

/** The stored list with image `index` described by `alt` ('' for none). */
export function withImageAlt(stored: string | null | undefined, index: number, alt: string): string {
  const alts = readImageAlts(stored, Math.max(index + 1, parse(stored).length));
  alts[index] = alt;
  // Trailing empty entries say nothing.
  while (alts.length > 0 && alts[alts.length - 1] === '') alts.pop();
  return JSON.stringify(alts);
}
