import { Type } from '@sinclair/typebox';

export const SuggestionQuery = Type.Object({ query: Type.Optional(Type.String({ maxLength: 200 })) });
/** Search result: a user or one's own group, as _id and name. */
export const SearchResult = Type.Object({ _id: Type.String(), name: Type.String() });
export const SearchResults = Type.Array(SearchResult);
