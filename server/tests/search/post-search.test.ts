import { beforeAll, describe, expect, it } from 'vitest';
import { postIdsQuery } from '../../src/modules/feeds/feeds.repository';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useStatementCounter } from '../helpers/statements';
import { TEST_DB, useTestApp } from '../helpers/test-app';

describe('post search: every word, in any order', () => {
  const t = useTestApp();
  let author: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  const p = {} as Record<'horse' | 'czech' | 'secret' | 'other', string>;

  beforeAll(async () => {
    author = await createUser(t.app);
    member = await createUser(t.app);
    stranger = await createUser(t.app);
    const hidden = await createGroup(t.app, author, { isPrivate: true });
    await addMember(t.app, hidden.id, member);
    const at = Date.now() - 10_000;
    p.horse = (await createPost(t.app, author, { text: 'another horse story 37474', createdAt: at })).id;
    p.czech = (await createPost(t.app, author, { text: 'Žluťoučký kůň 37474', createdAt: at + 1 })).id;
    p.secret = (await createPost(t.app, author, { text: 'Tajný kůň v ohradě 37474', groupIds: [hidden.id], createdAt: at + 2 })).id;
    p.other = (await createPost(t.app, author, { text: 'a story without the animal', createdAt: at + 3 })).id;
  });

  const search = async (viewer: TestUser | null, query: string) => {
    const res = await call(t.app, viewer, { method: 'GET', url: `/api/search/for/posts?query=${encodeURIComponent(query)}&limit=50` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { posts: { _id: string }[] }).posts.map((x) => x._id);
  };

  it('finds the words in any order, not only as one phrase', async () => {
    expect(await search(null, 'horse story')).toEqual([p.horse]);
    expect(await search(null, 'story horse')).toEqual([p.horse]);
    expect(await search(null, 'horse 37474')).toEqual([p.horse]);
    expect(await search(null, '  37474   horse ')).toEqual([p.horse]);
    expect(await search(null, 'story')).toEqual([p.other, p.horse]);
  });

  it('folds case and accents of every word', async () => {
    expect(await search(null, 'zlutoucky 37474')).toEqual([p.czech]);
    expect(await search(null, '37474 ŽLUŤOUČKÝ')).toEqual([p.czech]);
    expect(await search(null, 'KUN zlut')).toEqual([p.czech]);
  });

  it('needs every word: one missing word finds nothing', async () => {
    expect(await search(null, 'horse zlutoucky')).toEqual([]);
    expect(await search(null, 'story 99999')).toEqual([]);
  });

  it('words of one or two letters count too', async () => {
    expect(await search(null, 'kun zl')).toEqual([p.czech]);
    expect(await search(null, 'a horse')).toEqual([p.horse]);
    expect(await search(null, 'v kun')).toEqual([]);
  });

  it('a private group\'s post is found by its members only', async () => {
    expect(await search(null, 'kun 37474')).toEqual([p.czech]);
    expect(await search(stranger, '37474 kun')).toEqual([p.czech]);
    expect(await search(member, '37474 kun')).toEqual([p.secret, p.czech]);
    expect(await search(member, 'v ohrade kun')).toEqual([p.secret]);
    expect(await search(stranger, 'ohrade tajny')).toEqual([]);
  });

  it('walking the newest posts and asking the index find the same posts', async () => {
    expect(await search(member, 'ohrade v')).toEqual([p.secret]);
    for (const viewer of [null, member]) {
      for (const query of ['story horse', 'kun 37474', 'v kun', 'kun zl', 'ohrade v']) {
        const params = { viewerId: viewer?.id ?? null, scope: { kind: 'search' as const, query }, sort: 'newest' as const, since: 0, before: undefined, offset: 0, fetch: 50 };
        const walk = (await postIdsQuery(t.app.db, params, 'walk').execute()).map((r) => r.id);
        const sort = (await postIdsQuery(t.app.db, params, 'sort').execute()).map((r) => r.id);
        expect(walk, query).toEqual(sort);
        expect(walk, query).toEqual(await search(viewer, query));
      }
    }
  });
});

describe('post search: the plan of a search is chosen once for its pages', () => {
  const { t, statementsOf } = useStatementCounter();
  let author: TestUser;

  beforeAll(async () => {
    author = await createUser(t.app);
    for (let i = 0; i < 6; i++) await createPost(t.app, author, { text: `morning coffee number ${i}` });
  });

  const counts = (statements: string[]) => statements.filter((s) => /count\(\*\)/i.test(s) && /posts_fts/.test(s));

  it('counts the index for the first page only, whatever the order of the words, and pages alike', async () => {
    const url = (query: string, page: number) => `/api/search/for/posts?query=${encodeURIComponent(query)}&limit=4&page=${page}`;
    const first = await statementsOf(null, url('coffee morning', 1));
    // PostgreSQL's planner chooses by itself and counts nothing.
    expect(counts(first)).toHaveLength(TEST_DB === 'sqlite' ? 1 : 0);
    expect(counts(await statementsOf(null, url('morning coffee', 2)))).toEqual([]);
    expect(counts(await statementsOf(null, url('coffee morning', 1)))).toEqual([]);
    const pages = [];
    for (const page of [1, 2]) {
      const res = await call(t.app, null, { method: 'GET', url: url('morning coffee', page) });
      pages.push(...(res.json() as { posts: { _id: string }[] }).posts.map((p) => p._id));
    }
    expect(new Set(pages).size).toBe(6);
  });
});
