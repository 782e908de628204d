import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyGallery } from '../LazyGallery';
import { MediaImg } from '../MediaImg';
import { CARD_IMAGES, IMAGE_BOX, type ImagePriority } from '#core/post-layout';
import './post-card.css';

export { EAGER_CARDS, listingImagePriority, type ImagePriority } from '#core/post-layout';

/**
 * Up to two images in a row; a click opens them in the shared full-screen gallery. Each image is
 * named by the description its author wrote (`alts`, in image order), else by its place.
 */
export function PostImages({ urls, alts, priority = 'lazy' }: { urls: string[]; alts?: string[] | undefined; priority?: ImagePriority }) {
  const { t } = useTranslation('post');
  const [open, setOpen] = useState<number | null>(null);
  const shown = urls.slice(0, CARD_IMAGES);
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
