import { Suspense, lazy } from 'react';
import type { GalleryProps } from './Gallery';

const Gallery = lazy(() => import('./Gallery').then((m) => ({ default: m.Gallery })));

/**
 * The gallery, drawn only while open: its lightbox library is fetched the first time a picture or
 * an avatar is opened, so no screen downloads it before it can draw.
 */
export function LazyGallery(props: GalleryProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <Gallery {...props} />
    </Suspense>
  );
}
