import { type GifLocale, gifsApi } from '#core/api/gifs';
import { parseErrorMessage } from '#core/errors';
import { API_BASE, ApiError, NetworkError, callApi } from '../../lib/api/client';
import { getSession } from '../../lib/session';

export type { Gif, GifCategory, GifLocale, GifPage } from '#core/api/gifs';


export const fetchGifCategories = (locale: GifLocale, signal?: AbortSignal) =>
  callApi(gifsApi.categories, { query: { locale } }, { signal }).then((r) => r.categories);

export const searchGifs = (q: string, pos: string | undefined, locale: GifLocale, signal?: AbortSignal) =>
  callApi(gifsApi.search, { query: { q, pos, locale } }, { signal });

export const featuredGifs = (pos: string | undefined, locale: GifLocale, signal?: AbortSignal) =>
  callApi(gifsApi.featured, { query: { pos, locale } }, { signal });

/** Tells Tenor which GIF was used; only rankings depend on it. */
export const shareGif = (id: string, q: string, locale: GifLocale) =>
  callApi(gifsApi.share, { body: { id, q: q || undefined, locale } });

/** Name of an attached picked GIF, so the composer can tell it from photos. */
const GIF_FILE = /^tenor-[\w-]+\.gif$/;
export const isPickedGif = (image: { name?: string }): boolean => !!image.name && GIF_FILE.test(image.name);

/**
 * The GIF's bytes through the server (the CSP admits no other origin for fetches), as a file
 * the composer attaches like a picked image. Read by hand: the answer is image/gif, not JSON.
 */
export async function downloadGif(id: string, signal?: AbortSignal): Promise<File> {
  const headers: Record<string, string> = {};
  const { token } = getSession();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${gifsApi.file.path}?id=${encodeURIComponent(id)}`, { headers, signal });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new NetworkError((err as Error)?.message);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`;
    throw new ApiError(response.status, parseErrorMessage(message), message);
  }
  const data = await response.arrayBuffer();
  return new File([data], `tenor-${id}.gif`, { type: 'image/gif' });
}
