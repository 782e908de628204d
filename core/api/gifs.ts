import { type Static, Type } from '@sinclair/typebox';
import { listOf } from './common.js';
import { endpoint } from './endpoint.js';

/** Tenor ids are digit strings; anything else never names a GIF and is never sent on. */
export const GIF_ID_PATTERN = '^[0-9A-Za-z_-]{1,64}$';
export const GifId = Type.String({ pattern: GIF_ID_PATTERN });

/** Tenor locales the API accepts; the web app asks for LIMITS.gifLocale. */
export const GIF_LOCALES = ['en_US', 'cs_CZ'] as const;
export type GifLocale = (typeof GIF_LOCALES)[number];
const Locale = Type.Union(GIF_LOCALES.map((l) => Type.Literal(l)), { default: 'en_US' });

/** Tenor's paging token of the next page; opaque, short. */
const Pos = Type.Optional(Type.String({ maxLength: 200 }));

export const CategoriesQuery = Type.Object({ locale: Locale });
export const SearchQuery = Type.Object({ q: Type.String(), pos: Pos, locale: Locale });
export const FeaturedQuery = Type.Object({ pos: Pos, locale: Locale });
export const FileQuery = Type.Object({ id: GifId });
export const ShareBody = Type.Object({ id: GifId, q: Type.Optional(Type.String()), locale: Locale });

/** The GIF result: id, url (the full GIF), preview (the small one), dims [w, h], tags. */
export const Gif = Type.Object({
  id: Type.String(),
  url: Type.String(),
  preview: Type.String(),
  dims: Type.Tuple([Type.Number(), Type.Number()]),
  tags: Type.Array(Type.String()),
});
export type Gif = Static<typeof Gif>;

/** A page of results; `next` is the pos of the following page, '' after the last one. */
export const GifPage = Type.Object({ results: Type.Array(Gif), next: Type.String() });
export type GifPage = Static<typeof GifPage>;

export const GifCategory = Type.Object({ name: Type.String(), searchterm: Type.String(), image: Type.String() });
export type GifCategory = Static<typeof GifCategory>;
export const GifCategories = listOf('categories', GifCategory);
export type GifCategories = Static<typeof GifCategories>;

/** The GIF's bytes (image/gif), sent as they are rather than serialised from a schema. */
export const GifFile = Type.Unsafe<Uint8Array>({ contentMediaType: 'image/gif', description: 'The GIF file' });

/**
 * Without a Tenor key every call answers gifs_unavailable (404); Tenor failing or answering
 * nonsense answers it as a 502.
 */
const UNAVAILABLE = 'gifs_unavailable';

/**
 * The GIF picker's calls, proxied to Tenor so its key stays on the server. Signed-in users only:
 * the picker lives in the composer, and the key's quota is not for anonymous callers.
 */
export const gifsApi = {
  categories: endpoint({
    method: 'GET',
    path: '/gif/categories',
    summary: "Tenor's GIF categories in the locale",
    query: CategoriesQuery,
    replies: { 200: GifCategories },
    errors: [UNAVAILABLE],
  }),
  search: endpoint({
    method: 'GET',
    path: '/gif/search',
    summary: 'GIFs matching `q`, a page at a time (`pos` from the previous page\'s `next`)',
    query: SearchQuery,
    replies: { 200: GifPage },
    invalidKey: 'invalid_query',
    errors: [UNAVAILABLE, 'max_gif_query_length'],
  }),
  featured: endpoint({
    method: 'GET',
    path: '/gif/featured',
    summary: "Tenor's featured GIFs, a page at a time",
    query: FeaturedQuery,
    replies: { 200: GifPage },
    errors: [UNAVAILABLE],
  }),
  file: endpoint({
    method: 'GET',
    path: '/gif/file',
    summary: "A GIF's bytes, so the client attaches it like a picked image and the upload re-encodes it",
    query: FileQuery,
    replies: { 200: GifFile },
    invalidKey: 'gif_not_found',
    errors: [UNAVAILABLE, 'gif_not_found', 'image_too_large'],
  }),
  share: endpoint({
    method: 'POST',
    path: '/gif/share',
    summary: 'Tell Tenor which GIF was used (only its rankings depend on it)',
    body: ShareBody,
    replies: { 204: Type.Null() },
    invalidKey: 'gif_not_found',
    errors: [UNAVAILABLE, 'max_gif_query_length'],
  }),
} as const;
