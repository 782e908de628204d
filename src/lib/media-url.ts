import { useState, useSyncExternalStore } from 'react';
import { MEDIA_BASE_MESSAGE } from './media-cache';

/**
 * Where media is read from. The server names media by the app's own address, `/media/<path>`;
 * a deployment with a content host (MEDIA_URL, told by GET /config as mediaUrl) serves the same
 * bytes at `<mediaUrl>/<path>`, so images are asked there first and, when that fails, once from
 * `/media/<path>`. A signed private image keeps its query on either host.
 */

/** The last content host the server named, kept so a start offline reads the cached copies. */
const STORAGE_KEY = 'mediaUrl';
const listeners = new Set<() => void>();
/** undefined until read from localStorage. */
let base: string | null | undefined;

function readBase(): string | null {
  if (base === undefined) {
    try {
      base = (typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY)) || null;
    } catch {
      base = null;
    }
  }
  return base;
}

/** The content host of media, or null for the app's own /media. */
export const getMediaBase = (): string | null => readBase();

/** Tells the service worker, which caches the content host's media as it does /media's. */
function tellServiceWorker(mediaUrl: string | null): void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  navigator.serviceWorker.ready.then(
    (registration) => registration.active?.postMessage({ type: MEDIA_BASE_MESSAGE, mediaUrl }),
    () => undefined,
  );
}

/** Sets the content host from the public config (null or absent: none), and remembers it. */
export function setMediaBase(url: string | null | undefined): void {
  const next = url ? url.replace(/\/+$/, '') : null;
  tellServiceWorker(next);
  if (next === readBase()) return;
  base = next;
  try {
    if (next) localStorage.setItem(STORAGE_KEY, next);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Without storage the host is still used for this page's life.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The content host, re-rendering when the public config changes it. */
export function useMediaBase(): string | null {
  return useSyncExternalStore(subscribe, readBase, () => null);
}

const MEDIA_PREFIX = '/media/';

/**
 * The part of an app media URL after `/media` (from its slash, query included), for a relative
 * `/media/...` or an absolute one on this origin; null for any other URL (blob:, data:, Tenor).
 */
export function mediaPathOf(url: string): string | null {
  if (url.startsWith(MEDIA_PREFIX)) return url.slice(MEDIA_PREFIX.length - 1);
  if (typeof location === 'undefined' || !/^https?:/i.test(url)) return null;
  try {
    const parsed = new URL(url);
    if (parsed.origin !== location.origin || !parsed.pathname.startsWith(MEDIA_PREFIX)) return null;
    return parsed.pathname.slice(MEDIA_PREFIX.length - 1) + parsed.search;
  } catch {
    return null;
  }
}

/** The content host's address of an app media URL; any other URL, or no content host, as it is. */
export function contentHostUrl(url: string, mediaBase: string | null = getMediaBase()): string {
  if (!mediaBase) return url;
  const path = mediaPathOf(url);
  return path === null ? url : mediaBase + path;
}

/** Content-host addresses that failed to load on this page: asked from /media from then on. */
const failed = new Set<string>();

/** Where to load a media URL from now: the content host, unless its copy already failed here. */
export function mediaSrc(url: string, mediaBase: string | null = getMediaBase()): string {
  const remote = contentHostUrl(url, mediaBase);
  return failed.has(remote) ? url : remote;
}

/**
 * Notes that `src` (an address from mediaSrc) failed to load. Answers true when it was the
 * content host's copy, so the app's own URL is tried next; false when there is nothing left to
 * try (the caller's own fallback, such as the default avatar, comes then).
 */
export function mediaFailed(url: string, src: string): boolean {
  if (src === url) return false;
  failed.add(src);
  return true;
}

/**
 * An image's source: the content host's copy first; `onError` falls back once to the app's
 * /media URL (answering true) and answers false when that fails too.
 */
export function useMediaSource(url: string | undefined): { src: string | undefined; onError: () => boolean } {
  const mediaBase = useMediaBase();
  const [, setFallbacks] = useState(0);
  const src = url === undefined ? undefined : mediaSrc(url, mediaBase);
  const onError = () => {
    if (url === undefined || src === undefined || !mediaFailed(url, src)) return false;
    setFallbacks((n) => n + 1);
    return true;
  };
  return { src, onError };
}
