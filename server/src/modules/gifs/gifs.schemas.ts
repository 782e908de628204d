import { type Static, Type } from '@sinclair/typebox';

/** Tenor ids are digit strings; anything else never names a GIF and is never sent on. */
export const GIF_ID_PATTERN = '^[0-9A-Za-z_-]{1,64}$';
export const GifId = Type.String({ pattern: GIF_ID_PATTERN });

/** Tenor locales the web app asks for, following its language. */
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
export const GifCategories = Type.Object({ categories: Type.Array(GifCategory) });
