import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '#core/text';
import { newId } from '../../src/lib/ids';
import { ftsPhrase, searchCondition, searchMatches } from '../../src/lib/search';
import { createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';

const TABLES = ['users', 'groups', 'posts', 'comments'] as const;

describe('search indexes', () => {
  const t = useTestApp();
  let author: TestUser;
  let postId: string;

  beforeAll(async () => {
    author = await createUser(t.app, { username: 'Žlutý_kůň' });
    await createUser(t.app, { username: 'Příliš' });
    await createUser(t.app, { username: 'modry_pes' });
    await createGroup(t.app, author, { name: 'Žlutý kůň' });
    await createGroup(t.app, author, { name: 'Ódy' });
    postId = (await createPost(t.app, author, { text: 'Příliš žluťoučký kůň úpěl ďábelské ódy' })).id;
    await createPost(t.app, author, { text: 'Quote "this" 100% of_the time' });
    await createPost(t.app, author, { text: 'nothing to see' });
  });

  async function addComment(text: string): Promise<string> {
    const id = newId();
    await t.app.db
      .insertInto('comments')
      .values({ id, post_id: postId, parent_comment_id: null, author_id: author.id, text, search_text: foldForSearch(text), created_at: Date.now() })
      .execute();
    return id;
  }

  const find = async (table: (typeof TABLES)[number], query: string): Promise<string[]> => {
    const rows = await t.app.db
      .selectFrom(table)
      .select('search_text')
      .where(searchMatches(t.app.db, table, query))
      .orderBy('search_text')
      .execute();
    return rows.map((r) => r.search_text);
  };

  it('creates the index for each searchable table', async () => {
    if (TEST_DB === 'postgres') {
      const { rows } = await sql<{ indexname: string; indexdef: string }>`
        SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '%_search_trgm'`.execute(t.app.db);
      expect(rows.map((r) => r.indexname).sort()).toEqual(TABLES.map((x) => `${x}_search_trgm`).sort());
      for (const row of rows) expect(row.indexdef).toMatch(/USING gin \(search_text (public\.)?gin_trgm_ops\)/);
    } else {
      const { rows } = await sql<{ name: string; type: string; sql: string }>`
        SELECT name, type, sql FROM sqlite_master WHERE name LIKE '%_fts%' AND type IN ('table', 'trigger')`.execute(t.app.db);
      for (const table of TABLES) {
        const fts = rows.find((r) => r.name === `${table}_fts`);
        expect(fts?.sql).toMatch(/USING fts5\(search_text, content='\w+', content_rowid='rowid', tokenize='trigram'\)/);
        for (const trigger of ['insert', 'delete', 'update']) expect(rows.map((r) => r.name)).toContain(`${table}_fts_${trigger}`);
      }
    }
  });

  it('answers a search from the index, not a table scan', async () => {
    const query = t.app.db.selectFrom('users').select('id').where(searchMatches(t.app.db, 'users', 'zluty'));
    if (TEST_DB === 'postgres') {
      // users_search_order holds search_text too, and on a table this small the planner would rather
      // read it whole than ask the trigram index; it is left out here, in a transaction rolled back.
      const rollback = new Error('rollback');
      let plan: { 'QUERY PLAN': string }[] = [];
      await t.app.db
        .transaction()
        .execute(async (trx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          await sql`DROP INDEX users_search_order`.execute(trx);
          const compiled = query.compile();
          plan = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${compiled.sql.replace('$1', `'${compiled.parameters[0]}'`)}`).execute(trx)).rows;
          throw rollback;
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err;
        });
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('users_search_trgm');
    } else {
      const compiled = query.compile();
      expect(compiled.sql).toContain('users_fts');
      const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql.replace('?', `'${compiled.parameters[0]}'`)}`).execute(t.app.db);
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
    }
  });

  it('picks the form of the condition by dialect and query length', () => {
    const text = (dialect: 'sqlite' | 'postgres', query: string) =>
      t.app.db.selectFrom('users').select('id').where(() => searchCondition('users', query, dialect)).compile().sql;
    expect(text('postgres', 'kůň')).toMatch(/"users"\."search_text" LIKE/);
    expect(text('postgres', 'kůň')).not.toMatch(/ILIKE/);
    expect(text('sqlite', 'kůň')).toMatch(/"users"\."rowid" IN \(SELECT rowid FROM "users_fts" WHERE "users_fts" MATCH/);
    expect(text('sqlite', 'ků')).toMatch(/"users"\."search_text" LIKE/);
    // Asked through the app's database, that database's form applies.
    expect(t.app.db.selectFrom('users').select('id').where(searchMatches(t.app.db, 'users', 'kůň')).compile().sql).toBe(text(TEST_DB, 'kůň'));
  });

  it('matches without accents or case on every table (Czech)', async () => {
    const commentId = await addComment('Žluťoučký kůň pije');
    expect(await find('users', 'zluty')).toEqual(['zluty_kun']);
    expect(await find('users', 'ZLUTÝ_KŮŇ')).toEqual(['zluty_kun']);
    expect(await find('users', 'prilis')).toEqual(['prilis']);
    expect(await find('groups', 'zluty kun')).toEqual(['zluty kun']);
    expect(await find('groups', 'ÓDY')).toEqual(['ody']);
    expect(await find('posts', 'PŘÍLIŠ žluťoučký')).toEqual(['prilis zlutoucky kun upel dabelske ody']);
    expect(await find('posts', 'kun upel')).toEqual(['prilis zlutoucky kun upel dabelske ody']);
    expect(await find('comments', 'zlutoucky')).toEqual(['zlutoucky kun pije']);
    expect(await find('posts', 'kocka')).toEqual([]);
    await t.app.db.deleteFrom('comments').where('id', '=', commentId).execute();
  });

  it('answers one- and two-letter queries too', async () => {
    expect(await find('users', 'ž')).toEqual(['zluty_kun']);
    expect(await find('groups', 'Ód')).toEqual(['ody']);
    expect(await find('users', 'pe')).toEqual(['modry_pes']);
  });

  it('treats quotes, % and _ in a query as plain text', async () => {
    expect(await find('posts', '"this"')).toEqual(['quote "this" 100% of_the time']);
    expect(await find('posts', '100%')).toEqual(['quote "this" 100% of_the time']);
    expect(await find('posts', 'of_t')).toEqual(['quote "this" 100% of_the time']);
    expect(await find('posts', '%')).toEqual(['quote "this" 100% of_the time']);
    expect(await find('posts', 'o_t')).toEqual([]);
    expect(await find('posts', '" OR x')).toEqual([]);
    expect(ftsPhrase('a"b')).toBe('"a""b"');
  });

  it('follows changes and deletions of the text', async () => {
    const id = await addComment('Příliš pozdě');
    expect(await find('comments', 'pozde')).toEqual(['prilis pozde']);
    await t.app.db.updateTable('comments').set({ text: 'Včas', search_text: foldForSearch('Včas') }).where('id', '=', id).execute();
    expect(await find('comments', 'pozde')).toEqual([]);
    expect(await find('comments', 'vcas')).toEqual(['vcas']);
    await t.app.db.updateTable('comments').set({ likes: 3 }).where('id', '=', id).execute();
    expect(await find('comments', 'vcas')).toEqual(['vcas']);
    await t.app.db.deleteFrom('comments').where('id', '=', id).execute();
    expect(await find('comments', 'vcas')).toEqual([]);
  });

  it('drops rows removed by a cascade from the index', async () => {
    const post = await createPost(t.app, author, { text: 'kaskáda' });
    const id = newId();
    await t.app.db
      .insertInto('comments')
      .values({ id, post_id: post.id, parent_comment_id: null, author_id: author.id, text: 'vodopád', search_text: 'vodopad', created_at: Date.now() })
      .execute();
    expect(await find('comments', 'vodopad')).toEqual(['vodopad']);
    await t.app.db.deleteFrom('posts').where('id', '=', post.id).execute();
    expect(await find('comments', 'vodopad')).toEqual([]);
    expect(await find('posts', 'kaskada')).toEqual([]);
  });
});
