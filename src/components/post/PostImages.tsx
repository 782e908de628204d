import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyGallery } from '../LazyGallery';
import { MediaImg } from '../MediaImg';
import './post-card.css';

/**
 * How soon a card's pictures load: `high` for the first pictures of a listing (what a phone paints
 * largest first), `eager` for the other cards of the first screen, `lazy` for the rest, fetched as
 * they scroll near.
 */
export type ImagePriority = 'high' | 'eager' | 'lazy';

/** How many cards at the top of a listing load their pictures without waiting to be scrolled near. */
export const EAGER_CARDS = 3;

/**
 * The priority of the pictures of the post at `index` in a listing: the first screen's cards load
 * theirs at once, and the first of them with pictures ahead of everything else.
 */
export function listingImagePriority(posts: ReadonlyArray<{ media?: string[] | null }>, index: number): ImagePriority {
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

/**
 * Up to two images in a row; a click opens them in the shared full-screen gallery. Each image is
 * named by the description its author wrote (`alts`, in image order), else by its place.
 */
export function PostImages({ urls, alts, priority = 'lazy' }: { urls: string[]; alts?: string[] | undefined; priority?: ImagePriority }) {
  const { t } = useTranslation('post');
  const [open, setOpen] = useState<number | null>(null);
  const shown = urls.slice(0, 2);
  if (shown.length === 0) return null;
  const described = (i: number) => alts?.[i]?.trim() ?? '';
  const altOf = (i: number) => described(i) || t('image_alt', { index: i + 1 });
  const box = IMAGE_BOX[shown.length as 1 | 2];
  return (
    <div className={`post-images post-images-${shown.length}`} style={{ aspectRatio: box.ratio }}>
      {shown.map((url, i) => (
        <button key={url} type="button" className="post-image" onClick={() => setOpen(i)}>
          <MediaImg
            src={url}
            alt={altOf(i)}
            width={box.width}
            height={box.height}
            loading={priority === 'lazy' ? 'lazy' : 'eager'}
            fetchPriority={priority === 'high' && i === 0 ? 'high' : undefined}
            decoding={priority === 'lazy' ? 'async' : undefined}
          />
        </button>
      ))}
      <LazyGallery
        open={open !== null}
        slides={shown.map((src, i) => ({ src, alt: altOf(i), ...(described(i) ? { description: described(i) } : {}) }))}
        index={open ?? 0}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
