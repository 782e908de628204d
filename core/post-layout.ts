/**
 * How a listing lays out a post's pictures, shared by the app's cards and the plain HTML cards the
 * server puts in the page at `/`, so the app's drawing replaces the server's without moving anything.
 */

/**
 * How soon a card's pictures load: `high` for the first pictures of a listing (what a phone paints
 * largest first), `eager` for the other cards of the first screen, `lazy` for the rest, fetched as
 * they scroll near.
 */
export type ImagePriority = 'high' | 'eager' | 'lazy';

/** How many cards at the top of a listing load their pictures without waiting to be scrolled near. */
export const EAGER_CARDS = 3;

/** How many of a post's pictures a card shows. */
export const CARD_IMAGES = 2;

/**
 * The priority of the pictures of the post at `index` in a listing: the first screen's cards load
 * theirs at once, and the first of them with pictures ahead of everything else.
 */
export function listingImagePriority(posts: ReadonlyArray<{ media?: readonly string[] | null }>, index: number): ImagePriority {
  if (index < 0 || index >= EAGER_CARDS) return 'lazy';
  const first = posts.findIndex((post) => (post.media?.length ?? 0) > 0);
  return index === first ? 'high' : 'eager';
}

/**
 * The box each layout keeps for its pictures before they load, so nothing below moves when they
 * arrive: one picture in a 4:3 box, two side by side in squares. The pictures are cropped to fill.
 */
export const IMAGE_BOX = {
  1: { ratio: '4 / 3', width: 800, height: 600 },
  2: { ratio: '2 / 1', width: 400, height: 400 },
} as const;
