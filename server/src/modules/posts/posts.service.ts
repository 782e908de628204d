import type { PostHistory } from '#core/api/posts';
import { extractHashtags, foldForSearch, trimText } from '#core/text';
import { normalizeContentWarning, postImagesMax, validateContentWarning, validateImages, validatePostText, validateSlots } from '#core/validation';
import type { Executor } from '../../db/schema.js';
import { findUsersByIdOrName } from '../../db/users.js';
import { badRequest, forbidden, notFound } from '../../lib/app-error.js';
import { takeLikeSlot, takePostSlot, takeStrangerMentionSlots } from '../../lib/content-limits.js';
import { isId, newId } from '../../lib/ids.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './posts.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { MediaStorage } from '../../lib/storage.js';
import type { Viewer } from '../../plugins/auth.js';
import { canPostIn, groupsNamedForPosting, groupsPostingRules, holdGroupsForPosting, isBannedFromPost, standingsIn } from '../../policy/group-access.js';
import { isPostVisible } from '../../policy/post-visibility.js';
import { isBlockedBetween } from '../../policy/blocks.js';
import { takeSlot } from '../../lib/rate-limit.js';
import { type MediaSigner, type PostView, toPostView } from './posts.mapper.js';
import * as repo from './posts.repository.js';
import { deletePostsWithMedia } from './group-posts.js';
import { type Community, addPostCommunities, communitiesNamed } from '../remote/remote-communities.js';
import { typedMentionAccounts } from '../remote/typed-mentions.js';

export type { MediaSigner, PostView } from './posts.mapper.js';

/**
 * Posts as the caller sees them, in the order of `postIds`; posts that are missing or hidden from
 * the viewer (private groups) are dropped. Pass the app (or the media secret) as `signer` so
 * images of private posts get signed URLs. One query per related table, whatever the count.
 */
export async function getPostsForViewer(
  db: Executor,
  postIds: string[],
  viewerId: string | null,
  signer?: MediaSigner,
): Promise<PostView[]> {
  const ids = [...new Set(postIds)];
  return postViewsOf(db, await repo.findVisiblePosts(db, ids, viewerId), postIds, viewerId, signer);
}

/**
 * getPostsForViewer of posts already read (findVisiblePosts' rows, or a listing's page read with its
 * posts): their tags, mentions and sharers, in the order of `postIds`.
 */
export async function postViewsOf(db: Executor, rows: repo.PostBaseRow[], postIds: string[], viewerId: string | null, signer?: MediaSigner): Promise<PostView[]> {
  if (rows.length === 0) return [];
  const idsOf = (has: (row: repo.PostBaseRow) => boolean) => rows.filter(has).map((r) => r.id);
  // Each is asked only of the posts that may have one: a page where none has any sends no statement.
  // Only a post from another server can have been passed on by a community.
  const [groupRows, mentionRows, sharerRows] = await Promise.all([
    repo.findPostGroupsSeenBy(db, idsOf((r) => r.has_groups), viewerId),
    repo.findPostMentions(db, idsOf((r) => r.has_mentions)),
    repo.findPostSharers(db, idsOf((r) => r.ap_id !== null)),
  ]);
  const groupsByPost = groupBy(groupRows, (g) => g.post_id);
  const mentionsByPost = groupBy(mentionRows, (m) => m.post_id);
  const sharersByPost = new Map<string, { _id: string; username: string }>();
  for (const row of sharerRows) if (!sharersByPost.has(row.post_id)) sharersByPost.set(row.post_id, { _id: row.sharer_id, username: row.username });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ctx = { viewerId, groupsByPost, mentionsByPost, sharersByPost, signer };
  return postIds.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    byId.delete(id);
    const view = toPostView(row, ctx);
    privateOf.set(view, row.is_private);
    return [view];
  });
}

/** Whether each post read above is in a private group, as its statement found it. */
const privateOf = new WeakMap<PostView, boolean>();

/**
 * Whether a post read by getPostsForViewer is in a private group (undefined for a post read
 * otherwise): an adapter that shows it (the client API's visibility) need not ask again.
 */
export const inPrivateGroup = (post: PostView): boolean | undefined => privateOf.get(post);

/**
 * The statement of getPostsForViewer's posts of a listing's page, read in the page's own statement
 * (the feeds' listPagePosts), and its rows as postViewsOf takes them.
 */
export const pagePostsStatement = repo.listedPostsQuery;
/** A row of pagePostsStatement as the database gives it. */
export type PostRawRow = repo.VisiblePostRawRow;
export const toPostRow = repo.toPostBaseRow;

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/**
 * One post as the caller sees it (private images with signed URLs); missing and hidden posts are
 * the same 404 (didnt_find_post).
 */
export async function getPostForViewer(ctx: ServiceContext, viewer: Viewer | null, postId: string): Promise<PostView> {
  if (!isId(postId)) throw notFound('didnt_find_post');
  const [post] = await getPostsForViewer(ctx.db, [postId], viewer?.id ?? null, ctx.app);
  if (!post) throw notFound('didnt_find_post');
  return post;
}

/** Group names of a visible post, in tag order (the composer presets them for a reply). */
export async function getPostGroupNames(ctx: ServiceContext, viewer: Viewer | null, postId: string): Promise<string[]> {
  // The post's own rule (blocks included), so its groups answer 404 exactly when the post does.
  if (!isId(postId) || !(await repo.isPostReadable(ctx.db, postId, viewer?.id ?? null))) throw notFound('didnt_find_post');
  return repo.findPostGroupNames(ctx.db, postId);
}

// ---- Creating --------------------------------------------------------------------------------

export interface CreatePostInput {
  text?: unknown;
  mentions?: string[] | undefined;
  groups?: string[] | undefined;
  replyingTo?: string | null | undefined;
  contentWarning?: string | null | undefined;
  /** How many pictures the app uploads after the post (see picture-wait.ts). */
  images?: number | undefined;
}

/** Trimmed, non-empty entries, first occurrence kept (duplicates compare case-insensitively). */
function distinctEntries(entries: string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of entries ?? []) {
    const entry = raw.trim();
    const key = entry.toLowerCase();
    if (entry === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/**
 * Matches each entry (an id or a name) to a row by id first, then by lowercased name; entries that
 * match nothing stay plain text. Two entries that land on the same row keep only the first.
 */
function resolveEntries<R extends { id: string }>(
  entries: string[],
  rows: R[],
  nameLower: (row: R) => string,
): { row: R | null; text: string }[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byName = new Map(rows.map((r) => [nameLower(r), r]));
  const taken = new Set<string>();
  const out: { row: R | null; text: string }[] = [];
  for (const entry of entries) {
    const row = byId.get(entry) ?? byName.get(entry.toLowerCase()) ?? null;
    if (row) {
      if (taken.has(row.id)) continue;
      taken.add(row.id);
    }
    out.push({ row, text: entry });
  }
  return out;
}

type Mention = { userId: string | null; username: string };

/** Mention entries (ids or names) as stored: a user's id and name, or the plain text when it names nobody. */
async function resolveMentions(trx: Executor, entries: string[]): Promise<Mention[]> {
  const rows = await findUsersByIdOrName(trx, entries.filter(isId), entries.map((e) => e.toLowerCase()));
  return resolveEntries(entries, rows, (u) => u.username_lower).map(({ row, text: raw }) =>
    row ? { userId: row.id, username: row.username } : { userId: null, username: raw },
  );
}

/**
 * The chosen mentions, and after them the accounts the text names by their fediverse handle
 * (`@bob@other.example`, found by `prepareTypedMentions` before the post is written), within the
 * limit of mentions.
 */
async function withTypedMentions(trx: Executor, text: string, chosen: Mention[]): Promise<Mention[]> {
  const typed = await typedMentionAccounts(trx, text, chosen.map((m) => m.userId));
  return [...chosen, ...typed.map((user) => ({ userId: user.id, username: user.username }))];
}

/**
 * A post's group tags as stored, and the remote communities among them: a community is tagged by
 * its name (`name@host`), as no group here, and kept once however many entries name it.
 */
function withCommunities(groups: { row: { id: string; name: string } | null; text: string }[], communities: Map<string, Community>) {
  const communityIds: string[] = [];
  const groupTags: { groupId: string | null; name: string }[] = [];
  for (const { row, text } of groups) {
    const community = row ? undefined : communities.get(text);
    if (community) {
      if (communityIds.includes(community.accountId)) continue;
      communityIds.push(community.accountId);
    }
    groupTags.push(row ? { groupId: row.id, name: row.name } : { groupId: null, name: community?.name ?? text });
  }
  return { groupTags, communityIds };
}

/**
 * The author's standing in every group the post goes to (banned, not a member, not allowed to
 * post there), in two queries whatever the count.
 */
async function checkPostingRights(trx: Executor, authorId: string, groups: { id: string; everyone_can_post: boolean }[]): Promise<void> {
  const ids = groups.map((g) => g.id);
  await holdGroupsForPosting(trx, ids);
  const { roles, bans } = await standingsIn(trx, authorId, ids, [authorId]);
  for (const group of groups) {
    const membership = { role: roles.get(group.id) ?? null, banned: bans.has(`${group.id}:${authorId}`), requested: false };
    if (membership.banned) throw forbidden('banned');
    if (!membership.role) throw forbidden('not_member');
    if (!canPostIn(group, membership)) throw forbidden('need_admin');
  }
}

/**
 * A remote account's standing in the groups its post is addressed to. It is no member: following a
 * group from its server stands for joining, which the inbox checks. So only a group anyone may join
 * and read (public, no request to join) where every member may post takes it, and a ban holds as
 * for anyone.
 */
async function checkRemotePostingRights(trx: Executor, authorId: string, groupIds: string[]) {
  await holdGroupsForPosting(trx, groupIds);
  const [rows, { bans }] = await Promise.all([groupsPostingRules(trx, groupIds), standingsIn(trx, null, groupIds, [authorId])]);
  for (const id of groupIds) {
    const group = rows.find((row) => row.id === id);
    if (!group || group.is_private || group.request_join) throw forbidden('not_member');
    if (bans.has(`${id}:${authorId}`)) throw forbidden('banned');
    if (!group.everyone_can_post) throw forbidden('need_admin');
  }
  return rows.map((group) => ({ groupId: group.id, name: group.name }));
}

/**
 * Creates the caller's post with its mentions, group tags and hashtags, and queues its
 * notifications, all in the route's transaction.
 */
export async function createPost(ctx: ServiceContext, viewer: Viewer, input: CreatePostInput): Promise<PostView> {
  const trx = ctx.db;
  const authorId = viewer.id;
  const { rates } = ctx.app.config;
  const textError = validatePostText(input.text) ?? validateContentWarning(input.contentWarning);
  if (textError) throw badRequest(textError);
  const text = trimText(input.text as string);
  const mentionEntries = distinctEntries(input.mentions);
  const groupEntries = distinctEntries(input.groups);
  const slotsError = validateSlots(mentionEntries, groupEntries);
  if (slotsError) throw badRequest(slotsError);
  // The pictures announced here are checked by count (a reply takes fewer); their kind at upload.
  const isReply = input.replyingTo !== undefined && input.replyingTo !== null && input.replyingTo !== '';
  const imagesError = validateImages(Array.from({ length: input.images ?? 0 }, () => ({ animated: false })), postImagesMax(isReply));
  if (imagesError) throw badRequest(imagesError);

  const [mentions, groupRows] = await Promise.all([
    resolveMentions(trx, mentionEntries).then((chosen) => withTypedMentions(trx, text, chosen)),
    groupsNamedForPosting(trx, groupEntries.filter(isId), groupEntries.map((e) => e.toLowerCase())),
  ]);
  const groups = resolveEntries(groupEntries, groupRows, (g) => g.name_lower);
  await checkPostingRights(trx, authorId, groups.flatMap(({ row }) => (row ? [row] : [])));
  // An entry naming no group here may name a community of another server the author follows.
  const communities = await communitiesNamed(trx, authorId, groups.flatMap(({ row, text: raw }) => (row ? [] : [raw])));

  let replyTo: string | null = null;
  if (isReply) {
    if (!isId(input.replyingTo)) throw badRequest('invalid_post');
    if (!(await isPostVisible(trx, input.replyingTo, authorId))) throw notFound('invalid_post');
    if (await isBannedFromPost(trx, input.replyingTo, authorId)) throw forbidden('banned');
    await refuseBlocked(trx, input.replyingTo, authorId);
    replyTo = input.replyingTo;
  }

  await takePostSlot(trx, rates, authorId);
  await takeStrangerMentionSlots(trx, rates, authorId, mentions.map((m) => m.userId));
  const now = Date.now();
  const id = newId(now);
  const { groupTags, communityIds } = withCommunities(groups, communities);
  await repo.insertPost(trx, {
    id,
    authorId,
    text,
    replyTo,
    searchText: foldForSearch(text),
    createdAt: now,
    contentWarning: normalizeContentWarning(input.contentWarning),
    mentions,
    groups: groupTags,
    hashtags: extractHashtags(text),
  });
  await addPostCommunities(trx, id, communityIds);
  await publishEvent(ctx, 'post.created', { postId: id, pictures: input.images ?? 0 });
  return getPostForViewer(ctx, viewer, id);
}

/** A post that came from another server, as its remote author's account wrote it there. */
export interface RemotePostInput {
  text: string;
  contentWarning: string | null;
  /** When it was published there (never later than now). */
  createdAt: number;
  /** The local users it mentions. */
  mentions: Mention[];
  /** The local groups it was posted into (their ids), each announcing it to its remote followers. */
  groupIds?: string[];
  remote: NonNullable<repo.NewPost['remote']>;
  /** An old post read from its author's outbox: stored without telling anyone of it. */
  quiet?: boolean;
}

/**
 * Stores a remote account's post as its server sent it (already read into text within the limits):
 * the same rows and notifications as a local post, in the public groups it was posted into when
 * their rules let it in (else refused whole, as a local post is), and none of the sending limits,
 * which are the remote server's to keep.
 */
export async function storeRemotePost(ctx: ServiceContext, author: Viewer, input: RemotePostInput): Promise<string> {
  const groupIds = [...new Set(input.groupIds ?? [])];
  const groups = groupIds.length > 0 ? await checkRemotePostingRights(ctx.db, author.id, groupIds) : [];
  const id = newId(input.createdAt);
  await repo.insertPost(ctx.db, {
    id,
    authorId: author.id,
    text: input.text,
    replyTo: null,
    searchText: foldForSearch(input.text),
    createdAt: input.createdAt,
    contentWarning: input.contentWarning,
    mentions: input.mentions,
    groups,
    hashtags: extractHashtags(input.text),
    remote: input.remote,
  });
  await publishEvent(ctx, 'post.created', { postId: id, pictures: 0, quiet: input.quiet, remote: { groupIds: groups.map((group) => group.groupId) } });
  return id;
}

/** Refuses (403 blocked) to let the user reply to or like the post of someone a block stands between. */
async function refuseBlocked(trx: Executor, postId: string, userId: string): Promise<void> {
  const post = await repo.findPostAuthor(trx, postId);
  if (await isBlockedBetween(trx, userId, post?.author_id ?? null)) throw forbidden('blocked');
}

// ---- Editing ---------------------------------------------------------------------------------

export interface EditPostInput {
  postId: string;
  text?: unknown;
  mentions?: string[] | undefined;
  contentWarning?: string | null | undefined;
}

/**
 * Replaces a post's text by its author, under the rules of writing one: the same text checks, and
 * the author must still be allowed to post in each of the post's groups (a banned or departed
 * member cannot put new words into a group). The groups themselves never change, so the post's
 * audience, and who may read its history, stays the one it was written for. The replaced version
 * goes to the history; hashtags and the search text follow the new text; people the edit newly
 * mentions are told (those mentioned before are not, nor those who liked or answered).
 */
export async function editPost(ctx: ServiceContext, viewer: Viewer, input: EditPostInput): Promise<PostView> {
  const trx = ctx.db;
  const { postId } = input;
  const authorId = viewer.id;
  const { rates } = ctx.app.config;
  const post = isId(postId) ? await repo.findEditablePost(trx, postId) : undefined;
  if (!post) throw notFound('didnt_find_post');
  if (post.author_id !== authorId) {
    if (!(await isPostVisible(trx, postId, authorId))) throw notFound('didnt_find_post');
    throw forbidden('not_author');
  }
  const groups = (await repo.findPostGroups(trx, [postId])).flatMap((g) =>
    g.group_id !== null && g.everyone_can_post !== null ? [{ id: g.group_id, everyone_can_post: g.everyone_can_post }] : [],
  );
  // A remote account's post in a group here stands under the rules it was let in by.
  if (post.ap_id !== null) {
    if (groups.length > 0) await checkRemotePostingRights(trx, authorId, groups.map((group) => group.id));
  } else {
    await checkPostingRights(trx, authorId, groups);
  }

  const textError = validatePostText(input.text) ?? validateContentWarning(input.contentWarning);
  if (textError) throw badRequest(textError);
  const text = trimText(input.text as string);
  const contentWarning = input.contentWarning === undefined ? post.content_warning : normalizeContentWarning(input.contentWarning);

  let mentions: Mention[] | undefined;
  let newlyMentioned: string[] = [];
  if (input.mentions !== undefined) {
    const entries = distinctEntries(input.mentions);
    const slotsError = validateSlots(entries, []);
    if (slotsError) throw badRequest(slotsError);
    mentions = await withTypedMentions(trx, text, await resolveMentions(trx, entries));
    const before = new Set((await repo.findPostMentions(trx, [postId])).map((m) => m.user_id));
    newlyMentioned = [...new Set(mentions.flatMap((m) => (m.userId && !before.has(m.userId) ? [m.userId] : [])))];
    await takeStrangerMentionSlots(trx, rates, authorId, newlyMentioned);
  }

  // Each version is replaced strictly after it was written, so two quick edits keep their order.
  const writtenAt = post.edited_at ?? post.created_at;
  const now = Math.max(Date.now(), writtenAt + 1);
  const changed = text !== post.text || contentWarning !== post.content_warning;
  // Each change keeps a version, so changes are counted; one that changes nothing costs nothing.
  if (changed) await takeSlot(trx, { key: `edit:${authorId}`, max: rates.editsPerHour, windowMs: rates.windowMs }, 'edit_limit', now);
  await repo.updatePostText(trx, {
    postId,
    createdAt: post.created_at,
    text,
    searchText: foldForSearch(text),
    contentWarning,
    hashtags: extractHashtags(text),
    mentions,
    previous: changed
      ? { id: newId(now), text: post.text, contentWarning: post.content_warning, writtenAt, replacedAt: now }
      : undefined,
  });
  if (changed || newlyMentioned.length > 0) await publishEvent(ctx, 'post.edited', { postId, textChanged: changed, newlyMentioned });
  return getPostForViewer(ctx, viewer, postId);
}

/** A post's earlier versions, newest first, for whoever may read the post (others get 404). */
export async function getPostHistory(ctx: ServiceContext, viewer: Viewer | null, postId: string): Promise<PostHistory> {
  const { db } = ctx;
  const viewerId = viewer?.id ?? null;
  if (!isId(postId) || !(await repo.isPostReadable(db, postId, viewerId))) throw notFound('didnt_find_post');
  const rows = await repo.findPostVersions(db, postId);
  return { versions: rows.map(toVersion) };
}

// ---- Likes and deletion -------------------------------------------------------------------------

/**
 * Toggles the caller's like, or sets it when `liked` is given (an offline client sends the final
 * state, which is naturally idempotent). Answers the new count and state. Counted against the
 * likes limit on the route's transaction, so a refused like gives its slot back.
 */
export async function likePost(
  ctx: ServiceContext,
  viewer: Viewer,
  { postId, liked }: { postId: string; liked: boolean | undefined },
): Promise<{ likes: number; liked: boolean }> {
  const trx = ctx.db;
  const userId = viewer.id;
  const post = await repo.findLikeTarget(trx, postId, userId);
  if (!post) throw notFound('didnt_find_post');
  if (post.banned) throw forbidden('banned');
  if (post.blocked) throw forbidden('blocked');
  await takeLikeSlot(trx, ctx.app.config.rates, userId);
  const target = liked ?? !post.liked;
  const now = Date.now();
  if (target !== Boolean(post.liked)) await publishEvent(ctx, 'post.like_changing', { postId, userId, liked: target, now });
  return { likes: await repo.setLike(trx, postId, userId, target, now), liked: target };
}

/**
 * Deletes the caller's own post with everything hanging off it; answers the media keys to remove
 * once the transaction has committed. Others get not_author (or 404 when they cannot see it).
 */
export async function deletePost(ctx: ServiceContext, viewer: Viewer, postId: string): Promise<string[]> {
  const trx = ctx.db;
  const userId = viewer.id;
  const post = await repo.findPostAuthor(trx, postId);
  if (!post) throw notFound('didnt_find_post');
  if (post.author_id !== userId) {
    if (!(await isPostVisible(trx, postId, userId))) throw notFound('didnt_find_post');
    throw forbidden('not_author');
  }
  await publishEvent(ctx, 'post.deleting', { postId });
  return deletePostsWithMedia(trx, [postId], ctx.app);
}

/**
 * Removes the files of media a post no longer shows (the post deleted, or pictures an edit dropped);
 * a storage failure must not undo the change that already committed.
 */
export async function removePostMedia(storage: MediaStorage, keys: string[], log: { warn(obj: unknown, msg: string): void }) {
  try {
    await storage.remove(keys);
  } catch (err) {
    log.warn({ err, keys }, 'could not remove media files a post no longer shows');
  }
}

// ---- What the account export shows of a user's posts (account/post-export.ts) ---------------------

/** A group tag or a mention as a post keeps it: the id while the group or account exists, its current name. */
export interface TagRef {
  id: string | null;
  name: string;
}

/** A stored version as the API and the export show it. */
const toVersion = (row: repo.PostVersionRow): PostHistory['versions'][number] => ({
  text: row.text,
  contentWarning: row.content_warning,
  writtenAt: row.written_at,
  replacedAt: row.replaced_at,
});

/** The group tags of these posts, by post, in tag order: one statement whatever their count. */
export async function groupTagsOf(db: Executor, postIds: string[]): Promise<(postId: string) => TagRef[]> {
  const byPost = groupBy(await repo.findPostGroups(db, postIds), (g) => g.post_id);
  return (postId) => (byPost.get(postId) ?? []).map((g) => ({ id: g.group_id, name: g.current_name ?? g.stored_name }));
}

/** What a post's author gets of it beside its row: its tags, its mentions and the versions edits replaced. */
export interface PostWording {
  groups: TagRef[];
  mentions: TagRef[];
  /** Newest first: the author wrote those words too. */
  earlierVersions: PostHistory['versions'];
}

/** The wording of each of these posts (see PostWording): three statements whatever their count. */
export async function wordingOf(db: Executor, postIds: string[]): Promise<(postId: string) => PostWording> {
  const [groupsOf, mentionRows, versionRows] = await Promise.all([
    groupTagsOf(db, postIds),
    repo.findPostMentions(db, postIds),
    repo.findPostVersionsOf(db, postIds),
  ]);
  const mentionsByPost = groupBy(mentionRows, (m) => m.post_id);
  const versionsByPost = groupBy(versionRows, (v) => v.post_id);
  return (postId) => ({
    groups: groupsOf(postId),
    mentions: (mentionsByPost.get(postId) ?? []).map((m) => ({ id: m.user_id, name: m.current_name ?? m.stored_name })),
    earlierVersions: (versionsByPost.get(postId) ?? []).map(toVersion),
  });
}
