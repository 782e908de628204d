import { parseErrorMessage } from '#core/errors';
import { API_BASE, ApiError, NetworkError, apiFetch } from '../../lib/api/client';
import { getSession } from '../../lib/session';

/** A GIF result: the full GIF, its small preview, the GIF's [width, height], tags. */
export interface Gif {
  id: string;
  url: string;
  preview: string;
  dims: [number, number];
  tags: string[];
}

export interface GifPage {
  results: Gif[];
  /** Position of the next page; '' after the last one. */
  next: string;
}

export interface GifCategory {
  name: string;
  searchterm: string;
  image: string;
}

export type GifLocale = 'en_US' | 'cs_CZ';

/** Tenor's locale for the interface language. */
export const gifLocale = (language: string): GifLocale => (language.startsWith('cs') ? 'cs_CZ' : 'en_US');

export const fetchGifCategories = (locale: GifLocale, signal?: AbortSignal) =>
  apiFetch<{ categories: GifCategory[] }>('/gif/categories', { query: { locale }, signal }).then((r) => r.categories);

export const searchGifs = (q: string, pos: string | undefined, locale: GifLocale, signal?: AbortSignal) =>
  apiFetch<GifPage>('/gif/search', { query: { q, pos, locale }, signal });

export const featuredGifs = (pos: string | undefined, locale: GifLocale, signal?: AbortSignal) =>
  apiFetch<GifPage>('/gif/featured', { query: { pos, locale }, signal });

/** Tells Tenor which GIF was used; only rankings depend on it. */
export const shareGif = (id: string, q: string, locale: GifLocale) =>
  apiFetch<void>('/gif/share', { method: 'POST', body: { id, q: q || undefined, locale } });

/** Name of an attached picked GIF, so the composer can tell it from photos. */
const GIF_FILE = /^tenor-[\w-]+\.gif$/;
export const isPickedGif = (image: { name?: string }): boolean => !!image.name && GIF_FILE.test(image.name);

/**
 * The GIF's bytes through the server (the CSP admits no other origin for fetches), as a file
 * the composer attaches like a picked image.
 */
export async function downloadGif(id: string, signal?: AbortSignal): Promise<File> {
  const headers: Record<string, string> = {};
  const { token } = getSession();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/gif/file?id=${encodeURIComponent(id)}`, { headers, signal });
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
