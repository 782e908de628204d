import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, beforeEach } from 'vitest';
import { foldForSearch, skeleton } from '#core/text';
import { newId } from '../../src/lib/ids';
import { countFollow, countNewPost } from '../../src/modules/counters/account-counts';
import type { TestApp } from './test-app';

/**
 * Rows made straight in the database, so a feature's tests do not depend on another feature's
 * endpoints. Each returns what a test needs to act as that row's owner.
 */
export interface TestUser {
  id: string;
  username: string;
  email: string;
  token: string;
  auth: { authorization: string };
}

let counter = 0;
/**
 * Digits only: letters drawn at random can spell a word the profanity rule refuses (a base-36 stamp
 * once gave "xx"), which made a name fail validation on some runs and not others.
 */
const unique = () => `${Date.now()}_${counter++}`;

export async function createUser(
  app: FastifyInstance,
  overrides: Partial<{ username: string; email: string; verified: boolean; passwordHash: string | null; googleSub: string; createdAt: number }> = {},
): Promise<TestUser> {
  const username = overrides.username ?? `user${unique()}`;
  const email = overrides.email ?? `${username.toLowerCase()}@example.test`;
  const id = newId();
  await app.db
    .insertInto('users')
    .values({
      id,
      username,
      username_lower: username.toLowerCase(),
      username_skeleton: skeleton(username),
      email,
      password_hash: overrides.passwordHash ?? null,
      google_sub: overrides.googleSub ?? null,
      verified: overrides.verified === false ? 0 : 1,
      search_text: foldForSearch(username),
      created_at: overrides.createdAt ?? Date.now(),
    })
    .execute();
  const token = await app.signToken({ id, token_version: 0 });
  return { id, username, email, token, auth: { authorization: `Bearer ${token}` } };
}

/** app.inject with an optional user's bearer token. */
export function call(app: FastifyInstance, user: TestUser | null, options: InjectOptions) {
  return app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(user ? user.auth : {}) } });
}

export async function createGroup(
  app: FastifyInstance,
  owner: TestUser,
  overrides: Partial<{ name: string; isPrivate: boolean; requestJoin: boolean; everyoneCanPost: boolean }> = {},
): Promise<{ id: string; name: string }> {
  const name = overrides.name ?? `group${unique()}`;
  const id = newId();
  const now = Date.now();
  await app.db
    .insertInto('groups')
    .values({
      id,
      name,
      name_lower: name.toLowerCase(),
      name_skeleton: skeleton(name),
      owner_id: owner.id,
      is_private: overrides.isPrivate ? 1 : 0,
      request_join: overrides.requestJoin ? 1 : 0,
      everyone_can_post: overrides.everyoneCanPost === false ? 0 : 1,
      pinned_post_id: null,
      members: 1,
      search_text: foldForSearch(name),
      created_at: now,
    })
    .execute();
  await app.db.insertInto('group_members').values({ group_id: id, user_id: owner.id, role: 'owner', created_at: now }).execute();
  app.invalidateVisitorCache();
  return { id, name };
}

export async function addMember(app: FastifyInstance, groupId: string, user: TestUser, role: 'member' | 'admin' = 'member') {
  await app.db.insertInto('group_members').values({ group_id: groupId, user_id: user.id, role, created_at: Date.now() }).execute();
  await app.db.updateTable('groups').set((eb) => ({ members: eb('members', '+', 1) })).where('id', '=', groupId).execute();
  app.invalidateVisitorCache();
}

export async function createPost(
  app: FastifyInstance,
  author: TestUser,
  overrides: Partial<{ text: string; groupIds: string[]; replyTo: string; createdAt: number; likes: number }> = {},
): Promise<{ id: string }> {
  const id = newId();
  const text = overrides.text ?? `post ${unique()}`;
  const createdAt = overrides.createdAt ?? Date.now();
  await app.db
    .insertInto('posts')
    .values({
      id,
      author_id: author.id,
      text,
      reply_to: overrides.replyTo ?? null,
      likes: overrides.likes ?? 0,
      search_text: foldForSearch(text),
      created_at: createdAt,
    })
    .execute();
  const groupIds = overrides.groupIds ?? [];
  for (const [position, groupId] of groupIds.entries()) {
    const group = await app.db.selectFrom('groups').select('name').where('id', '=', groupId).executeTakeFirstOrThrow();
    await app.db.insertInto('post_groups').values({ post_id: id, position, group_id: groupId, name: group.name, created_at: createdAt }).execute();
  }
  // The author's count moves with the post, as with every post written through the API.
  await countNewPost(app.db, id);
  // Written past the API, so the kept visitor pages are forgotten here as a write through it would.
  app.invalidateVisitorCache();
  return { id };
}

/** `follower` follows `following` (notify off unless asked), at `createdAt` (default now). */
export async function createFollow(
  app: FastifyInstance,
  follower: TestUser,
  following: TestUser,
  overrides: Partial<{ notify: boolean; createdAt: number }> = {},
): Promise<void> {
  await app.db
    .insertInto('follows')
    .values({
      follower_id: follower.id,
      following_id: following.id,
      notify: overrides.notify ? 1 : 0,
      created_at: overrides.createdAt ?? Date.now(),
    })
    .execute();
  await countFollow(app.db, follower.id, following.id, 1);
}

/**
 * Users of a describe block, made once before its tests: `const { alice, bob } = useUsers(t, 'alice', 'bob')`.
 * Each name stands for an object filled in place by a `beforeAll`, so the users may be named at
 * the top of the block and used in its tests and in the hooks registered after this call.
 */
export function useUsers<const N extends string>(t: TestApp, ...names: N[]): Record<N, TestUser> {
  return usersMadeIn(beforeAll, t, names);
}

/** Like useUsers, but new users before each test: no test then sees what an earlier one left them (notifications, settings). */
export function useUsersPerTest<const N extends string>(t: TestApp, ...names: N[]): Record<N, TestUser> {
  return usersMadeIn(beforeEach, t, names);
}

function usersMadeIn<N extends string>(hook: typeof beforeAll, t: TestApp, names: N[]): Record<N, TestUser> {
  const users = Object.fromEntries(names.map((name) => [name, {} as TestUser])) as Record<N, TestUser>;
  hook(async () => {
    for (const name of names) Object.assign(users[name], await createUser(t.app));
  });
  return users;
}

/**
 * A group with a new user in it for each role given, in that order, owned by `owner` or else a new user:
 * `const { owner, group, members: [member, admin] } = await createGroupWith(app, ['member', 'admin'], { isPrivate: true })`.
 */
export async function createGroupWith<const R extends readonly ('member' | 'admin')[]>(
  app: FastifyInstance,
  roles: R,
  { owner: given, ...overrides }: Parameters<typeof createGroup>[2] & { owner?: TestUser } = {},
): Promise<{ owner: TestUser; group: { id: string; name: string }; members: { -readonly [K in keyof R]: TestUser } }> {
  const owner = given ?? (await createUser(app));
  const group = await createGroup(app, owner, overrides);
  const members: TestUser[] = [];
  for (const role of roles) {
    const user = await createUser(app);
    await addMember(app, group.id, user, role);
    members.push(user);
  }
  return { owner, group, members: members as { -readonly [K in keyof R]: TestUser } };
}

/** The user deletes their own account, confirming as an account without a password does: by typing its username. */
export function deleteOwnAccount(app: FastifyInstance, user: TestUser) {
  return call(app, user, { method: 'DELETE', url: '/api/account/delete', payload: { username: user.username } });
}
