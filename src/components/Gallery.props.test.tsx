import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { Gallery } from './Gallery';

const seen = vi.hoisted(() => ({ props: [] as Record<string, unknown>[] }));
vi.mock('yet-another-react-lightbox', () => ({
  default: (props: Record<string, unknown>) => {
    seen.props.push(props);
    return null;
  },
}));

describe('Gallery settings', () => {
  it('hands the lightbox its fixed numbers and closes on backdrop, pull and Escape', () => {
    renderWithApp(<Gallery open slides={[{ src: '/a.jpeg' }, { src: '/b.jpeg' }]} index={1} onClose={() => undefined} />);
    const props = seen.props.at(-1)!;
    expect(props).toMatchObject({
      open: true,
      index: 1,
      slides: [{ src: '/a.jpeg', type: 'image', imageFit: 'contain' }, { src: '/b.jpeg', type: 'image', imageFit: 'contain' }],
      animation: { fade: 250, swipe: 500, zoom: 500 },
      carousel: { preload: 2, padding: '16px', spacing: '30%', finite: false },
      zoom: { maxZoomPixelRatio: 3, zoomInMultiplier: 2, doubleTapDelay: 300, doubleClickDelay: 500 },
      controller: { closeOnBackdropClick: true, closeOnPullDown: true, closeOnPullUp: true, closeOnEscape: true },
    });
    expect(props.plugins).toHaveLength(2);
  });

  it('is finite with a single slide and leaves zoom out when asked', () => {
    renderWithApp(<Gallery open slides={[{ src: '/a.jpeg' }]} zoom={false} onClose={() => undefined} />);
    const props = seen.props.at(-1)!;
    expect(props.carousel).toMatchObject({ finite: true });
    expect(props.plugins).toHaveLength(1);
  });

  it('shows an image\u2019s description under its slide, and only adds captions when a slide has one', () => {
    renderWithApp(<Gallery open slides={[{ src: '/a.jpeg', alt: 'A red kite', description: 'A red kite' }, { src: '/b.jpeg' }]} onClose={() => undefined} />);
    const props = seen.props.at(-1)!;
    expect(props.slides).toMatchObject([{ src: '/a.jpeg', alt: 'A red kite', description: 'A red kite' }, { src: '/b.jpeg' }]);
    expect(props.plugins).toHaveLength(3);
  });
});
