import Lightbox from 'yet-another-react-lightbox';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';

/** The full-screen viewer of 000 §2/§9: zoom up to 3x, closes on backdrop click or pull. */
export default function ImageLightbox({ urls, index, onClose }: { urls: string[]; index: number; onClose: () => void }) {
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={urls.map((src) => ({ src }))}
      plugins={[Zoom]}
      zoom={{ maxZoomPixelRatio: 3, zoomInMultiplier: 2, doubleTapDelay: 300, doubleClickDelay: 500 }}
      animation={{ fade: 250, swipe: 500, zoom: 500 }}
      carousel={{ preload: 2, padding: '16px', spacing: '30%', finite: urls.length < 2 }}
      controller={{ closeOnBackdropClick: true, closeOnPullDown: true, closeOnPullUp: true }}
    />
  );
}
