import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MediaImg } from '../MediaImg';
import './post-card.css';

const Gallery = lazy(() => import('../../components/Gallery').then((m) => ({ default: m.Gallery })));

/** Up to two images in a row; a click opens them in the shared full-screen gallery. */
export function PostImages({ urls }: { urls: string[] }) {
  const { t } = useTranslation('post');
  const [open, setOpen] = useState<number | null>(null);
  const shown = urls.slice(0, 2);
  if (shown.length === 0) return null;
  return (
    <div className={`post-images post-images-${shown.length}`}>
      {shown.map((url, i) => (
        <button key={url} type="button" className="post-image" onClick={() => setOpen(i)}>
          <MediaImg src={url} alt={t('image_alt', { index: i + 1 })} loading="lazy" />
        </button>
      ))}
      {open !== null && (
        <Suspense fallback={null}>
          <Gallery open slides={shown.map((src, i) => ({ src, alt: t('image_alt', { index: i + 1 }) }))} index={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </div>
  );
}
