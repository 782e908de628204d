import { isMediaUrl } from '../lib/media-cache';
import { getMediaBase } from '../lib/media-url';

/** The media addresses of the pictures in the page (shown, or on their way), each once. */
export function shownMediaUrls(doc: Document, appOrigin: string, mediaBase: string | null): string[] {
  const urls = new Set<string>();
  for (const img of doc.images) {
    const src = img.currentSrc || img.src;
    if (!src) continue;
    try {
      if (isMediaUrl(new URL(src), appOrigin, mediaBase)) urls.add(src);
    } catch {
      // Not an address (an empty or odd src): nothing to keep.
    }
  }
  return [...urls];
}

/**
 * One picture after another: a feed's worth of requests made at once held a slow phone's main thread
 * for a quarter of a second right after the page had loaded.
 */
export async function askAgain(urls: string[]): Promise<void> {
  for (const url of urls) {
    // The content host answers the worker's own request (it asks with CORS); the page's may stay opaque.
    await fetch(url, { mode: 'no-cors' }).catch(() => undefined);
  }
}

/**
 * A first visit's pictures (the own avatar in the navigation first of all) arrive before the
 * service worker controls the page, past the media cache: offline they would be missing until seen
 * online again. The moment the worker takes over they are asked for once more, through it (mostly
 * answered by the browser's own cache), so the worker keeps them.
 */
export function keepShownMediaOnceControlled(): void {
  const container = navigator.serviceWorker;
  if (!container || container.controller) return;
  container.addEventListener(
    'controllerchange',
    () => void askAgain(shownMediaUrls(document, window.location.origin, getMediaBase())),
    { once: true },
  );
}
