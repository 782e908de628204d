import { type TestServer, type TestUser, api, createVerifiedUser, uniqueName } from './server';

/**
 * A small lived-in world for checks that walk every screen (accessibility, layout, screenshots):
 * people who follow each other, a public and a private group, posts with a hashtag, a mention and
 * a group tag, a comment thread three levels deep, and notifications.
 */
export interface World {
  owner: TestUser;
  friend: TestUser;
  group: string;
  privateGroup: string;
  hashtag: string;
  postId: string;
  commentId: string;
}

export interface Screen {
  /** A short name for reports and file names. */
  name: string;
  /** The path the browser opens (a real path, as a link outside the app opens it). */
  path: string;
  /** Only for a logged-in user (the route's guard sends others away). */
  guarded?: boolean;
}

async function ok<T>(reply: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const { status, body } = await reply;
  // Plain errors, not test assertions: the screenshot command seeds this world outside any test.
  if (status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

export async function seedWorld(server: TestServer): Promise<World> {
  const [owner, friend] = [await createVerifiedUser(server, { username: uniqueName('ana') }), await createVerifiedUser(server, { username: uniqueName('ben') })];
  const group = uniqueName('garden');
  const privateGroup = uniqueName('quiet');
  const hashtag = 'tomatoes';
  const as = (user: TestUser) => ({ token: user.token });
  await ok(api(server, 'POST', '/follow', { ...as(friend), body: { following: owner.id } }), 'follow');
  await ok(api(server, 'POST', '/follow', { ...as(owner), body: { following: friend.id } }), 'follow back');
  for (const [name, isPrivate] of [[group, false], [privateGroup, true]] as const) {
    await ok(
      api(server, 'POST', '/group', {
        ...as(owner),
        body: { name, description: 'Growing things together, season after season.', isPrivate, requestJoin: isPrivate, everyoneCanPost: true },
      }),
      `group ${name}`,
    );
  }
  await ok(api(server, 'PUT', `/group/${group}/join`, as(friend)), 'join');
  await ok(api(server, 'POST', '/post', { ...as(friend), body: { text: `First harvest of the year #${hashtag}` } }), 'post');
  const post = await ok(
    api<{ _id: string }>(server, 'POST', '/post', {
      ...as(owner),
      body: { text: `The #${hashtag} are ripe, come and see them`, mentions: [friend.id], groups: [group] },
    }),
    'tagged post',
  );
  const comment = await ok(api<{ _id: string }>(server, 'POST', '/comment/', { ...as(friend), body: { text: 'Save me a few!', parent: post._id } }), 'comment');
  const reply = await ok(api<{ _id: string }>(server, 'POST', '/comment/', { ...as(owner), body: { text: 'Of course, come by on Sunday.', parent: comment._id } }), 'reply');
  await ok(api(server, 'POST', '/comment/', { ...as(friend), body: { text: 'I will bring a basket.', parent: reply._id } }), 'reply to reply');
  await ok(api(server, 'PATCH', `/post/${post._id}/like`, { ...as(friend), body: { liked: true } }), 'like');
  return { owner, friend, group, privateGroup, hashtag, postId: post._id, commentId: comment._id };
}

/** Every screen of the app, as the owner of the world reaches it. */
export function screensOf(world: World): Screen[] {
  const { owner, group, hashtag, postId, commentId } = world;
  const u = owner.username;
  return [
    { name: 'feed', path: '/feed' },
    { name: 'feed-following', path: '/feed/following', guarded: true },
    { name: 'feed-groups', path: '/feed/groups', guarded: true },
    { name: 'compose', path: '/post', guarded: true },
    { name: 'post', path: `/p/${postId}` },
    { name: 'post-comment', path: `/p/${postId}?c=${commentId}` },
    { name: 'login', path: '/login' },
    { name: 'signup', path: '/signup' },
    { name: 'reset', path: '/reset' },
    { name: 'notifications', path: '/notifications', guarded: true },
    { name: 'search', path: `/search?q=${hashtag}` },
    { name: 'hashtag', path: `/h/${hashtag}` },
    { name: 'profile', path: `/u/${u}` },
    { name: 'profile-replies', path: `/u/${u}/replies` },
    { name: 'profile-followers', path: `/u/${u}/followers` },
    { name: 'profile-following', path: `/u/${u}/following` },
    { name: 'profile-groups', path: `/u/${u}/groups` },
    { name: 'create-group', path: '/create-group', guarded: true },
    { name: 'group', path: `/g/${group}` },
    { name: 'group-members', path: `/g/${group}/members` },
    { name: 'group-settings', path: `/g/${group}/settings`, guarded: true },
    { name: 'account', path: '/account', guarded: true },
    { name: 'account-credentials', path: '/account/credentials', guarded: true },
    { name: 'account-notification-settings', path: '/account/notification-settings', guarded: true },
    { name: 'account-invites', path: '/account/invites', guarded: true },
    { name: 'account-apps', path: '/account/apps', guarded: true },
    { name: 'about', path: '/about' },
    { name: 'not-found', path: '/no/such/page' },
  ];
}

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 850 },
} as const;
