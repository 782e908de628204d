import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { foldForSearch } from '#core/text';

/**
 * Accent- and case-insensitive substring search over a table's `search_text` column, which holds
 * the folded text (foldForSearch). The query is folded the same way, so "zluty" finds "žlutý".
 */
export type SearchTable = 'posts' | 'comments' | 'users' | 'groups';

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function searchMatches(table: SearchTable, query: string) {
  const pattern = `%${escapeLike(foldForSearch(query.trim()))}%`;
  return (_eb: ExpressionBuilder<any, any>) =>
    sql<SqlBool>`${sql.ref(`${table}.search_text`)} LIKE ${pattern} ESCAPE '\\'`;
}
