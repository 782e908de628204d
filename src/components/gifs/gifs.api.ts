import { type GifLocale, gifsApi } from '#core/api/gifs';
import { callApi, downloadApi } from '../../lib/api/client';

export type { Gif, GifCategory, GifLocale, GifPage } from '#core/api/gifs';

export const fetchGifCategories = (locale: GifLocale, signal?: AbortSignal) =>
  callApi(gifsApi.categories, { query: { locale } }, { signal }).then((r) => r.categories);

/** Tells Tenor which GIF was used; only rankings depend on it. */
export const shareGif = (id: string, q: string, locale: GifLocale) =>
  callApi(gifsApi.share, { body: { id, q: q || undefined, locale } });

/** Name of an attached picked GIF, so the composer can tell it from photos. */
const GIF_FILE = /^tenor-[\w-]+\.gif$/;
export const isPickedGif = (image: { name?: string }): boolean => !!image.name && GIF_FILE.test(image.name);

/**
 * The GIF's bytes through the server (the CSP admits no other origin for fetches), as a file
 * the composer attaches like a picked image. Downloaded, not called: the answer is image/gif, not JSON.
 */
export async function downloadGif(id: string, signal?: AbortSignal): Promise<File> {
  const { blob } = await downloadApi(gifsApi.file, { query: { id } }, { signal });
  return new File([blob], `tenor-${id}.gif`, { type: 'image/gif' });
}
