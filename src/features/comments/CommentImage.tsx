import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyGallery } from '../../components/LazyGallery';
import { MediaImg } from '../../components/MediaImg';
import './comments.css';

/**
 * A comment's image (at most one); a click opens it in the shared full-screen gallery with zoom.
 * It is named by the description its author wrote (`alt`), else generically.
 */
export function CommentImage({ url, blob, alt }: { url?: string | undefined; blob?: Blob | undefined; alt?: string | undefined }) {
  const { t } = useTranslation('comments');
  const [open, setOpen] = useState(false);
  const local = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => {
    if (local) URL.revokeObjectURL(local);
  }, [local]);
  const src = local ?? url;
  if (!src) return null;
  const described = alt?.trim() ?? '';
  const name = described || t('item.image_alt');
  return (
    <div className="comment-image">
      <button type="button" onClick={() => setOpen(true)} aria-label={t('item.open_image')}>
        <MediaImg src={src} alt={name} loading="lazy" />
      </button>
      <LazyGallery open={open} slides={[{ src, alt: name, ...(described ? { description: described } : {}) }]} onClose={() => setOpen(false)} />
    </div>
  );
}
