import { type SyntheticEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Lightbox, { type Slide } from 'yet-another-react-lightbox';
import Captions from 'yet-another-react-lightbox/plugins/captions';
import Counter from 'yet-another-react-lightbox/plugins/counter';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/counter.css';
import 'yet-another-react-lightbox/plugins/captions.css';
import { mediaFailed, mediaSrc, useMediaBase } from '../lib/media-url';
import { trapFocus } from './focus-trap';

/** The lightbox numbers. */
export const GALLERY_SETTINGS = {
  animation: { fade: 250, swipe: 500, zoom: 500 },
  carousel: { preload: 2, padding: '16px', spacing: '30%' },
  zoom: { maxZoomPixelRatio: 3, zoomInMultiplier: 2, doubleTapDelay: 300, doubleClickDelay: 500 },
} as const;

/** No fades, swipes or zooms in motion for people who ask their device for less of it. */
const STILL = { fade: 0, swipe: 0, zoom: 0 } as const;
export const prefersReducedMotion = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export interface GallerySlide {
  src: string;
  alt?: string;
  /** Shown under the slide: the description its author wrote for the image. */
  description?: string;
  width?: number;
  height?: number;
  srcSet?: { src: string; width: number; height: number }[];
  imageFit?: 'contain' | 'cover';
}

export interface GalleryProps {
  open: boolean;
  slides: GallerySlide[];
  onClose: () => void;
  /** The slide shown first. */
  index?: number;
  /** Post images zoom; avatars need not. */
  zoom?: boolean;
  /** The first slide has no previous and the last no next; otherwise it wraps. Default: only one slide. */
  finite?: boolean;
}

/**
 * The full-screen gallery: locks page scroll, previous/next, close and a toolbar; Escape
 * closes, arrows navigate (swapped right-to-left), swipe, wheel and pull work; slides are labelled
 * "index of total"; a backdrop click or a pull up or down closes it with a fade.
 */
export function Gallery({ open, slides, onClose, index = 0, zoom = true, finite }: GalleryProps) {
  const { t } = useTranslation('gallery');
  // Tab cycles through the gallery's own controls while it is open (the lightbox itself gives the
  // focus back to the opener when it closes).
  useEffect(() => (open ? trapFocus(() => document.querySelector<HTMLElement>('.yarl__root')) : undefined), [open]);
  const labels = {
    Previous: t('previous'),
    Next: t('next'),
    Close: t('close'),
    Slide: t('slide'),
    Carousel: t('carousel'),
    Lightbox: t('lightbox'),
    'Photo gallery': t('photo_gallery'),
    '{index} of {total}': t('slide_label', { index: '{index}', total: '{total}' }),
    'Zoom in': t('zoom_in'),
    'Zoom out': t('zoom_out'),
  };
  // Slides of app media load from the content host; one failing there is asked again from /media.
  const mediaBase = useMediaBase();
  const [, setFallbacks] = useState(0);
  const sources = slides.map((s) => mediaSrc(s.src, mediaBase));
  const yarlSlides: Slide[] = slides.map((s, i) => ({ type: 'image', imageFit: 'contain', ...s, src: sources[i] ?? s.src }));
  const onSlideError = (event: SyntheticEvent) => {
    const failedSrc = event.target instanceof HTMLImageElement ? event.target.getAttribute('src') : null;
    const slide = failedSrc === null ? undefined : slides[sources.indexOf(failedSrc)];
    if (slide && failedSrc !== null && mediaFailed(slide.src, failedSrc)) setFallbacks((n) => n + 1);
  };
  return (
    // The lightbox's own <img> takes no error handler; its error reaches this wrapper through the React tree.
    <div className="gallery-media" style={{ display: 'contents' }} onError={onSlideError}>
      <Lightbox
        open={open}
        close={onClose}
        index={index}
        slides={yarlSlides}
        labels={labels}
        plugins={[Counter, ...(zoom ? [Zoom] : []), ...(slides.some((s) => s.description) ? [Captions] : [])]}
        counter={{ separator: t('of') }}
        zoom={GALLERY_SETTINGS.zoom}
        animation={prefersReducedMotion() ? STILL : GALLERY_SETTINGS.animation}
        carousel={{ ...GALLERY_SETTINGS.carousel, finite: finite ?? slides.length < 2 }}
        controller={{ closeOnBackdropClick: true, closeOnPullDown: true, closeOnPullUp: true, closeOnEscape: true }}
        render={slides.length < 2 ? { buttonPrev: () => null, buttonNext: () => null } : undefined}
      />
    </div>
  );
}
