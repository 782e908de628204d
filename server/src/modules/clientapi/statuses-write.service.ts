import type { Status } from '#core/api/client-entities';
import type { NewStatus, StatusEdit, StatusSource, StatusVersion } from '#core/api/client-writes';
import { LIMITS } from '#core/limits';
import { postImagesMax, validateCommentText } from '#core/validation';
import type { Static } from '@sinclair/typebox';
import { AppError, notFound } from '../../lib/app-error.js';
import { writingHtml } from '../../lib/text-html.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { type StagedUpload, attachStagedUploads, stagedUploadsFor } from '../media/staged-uploads.js';
import { createComment, deleteComment, likeComment, readableComment } from '../comments/comments.service.js';
import { createPost, deletePost, editPost, getPostForViewer, getPostHistory, likePost } from '../posts/posts.service.js';
import { isoTime } from './account.mapper.js';
import { originOf } from './accounts.service.js';
import { commentStatusId, statusRefOf } from './client-ids.js';
import { listOf } from './client-route.js';
import { namedHere } from './statuses-write.repository.js';
import { getStatus } from './statuses.service.js';

export type NewStatusBody = Static<typeof NewStatus>;
export type StatusEditBody = Static<typeof StatusEdit>;

const unprocessable = (key: 'visibility_unsupported' | 'no_reblogs' | 'media_not_removable' | 'comment_not_editable') => new AppError(422, key);

/**
 * The `@name`s of a text that name no other server (`@bob`, not `@bob@elsewhere.example`, which the
 * typed mentions look up), in the order written, each once.
 */
export function localNamesIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/(?<![\w@/])@([\p{L}\p{N}_.-]+)(?![\p{L}\p{N}_.-]*@)/gu)) {
    const name = match[1]!.replace(/[.-]+$/u, '');
    if (name !== '' && !names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
  }
  return names;
}

const flag = (value: boolean | string | undefined) => value === true || value === 'true' || value === '1';

/** The content warning a status asks for: its words, or a plain one when it is only marked sensitive. */
function warningOf(body: { spoiler_text?: string | undefined; sensitive?: boolean | string | undefined }): string | null {
  const warning = body.spoiler_text?.trim() ?? '';
  return warning !== '' ? warning : flag(body.sensitive) ? 'Sensitive' : null;
}

/**
 * The uploads an edit adds to the post's pictures: `ids` names the pictures it has, as they are (an
 * app sends every picture of its edit box), then the caller's uploads to add after them.
 */
async function addedUploads(ctx: ServiceContext, viewer: Viewer, post: { id: string; pictures: number }, ids: readonly string[]): Promise<StagedUpload[]> {
  const own = (id: string) => id.startsWith(`${post.id}-`);
  const kept = ids.slice(0, post.pictures);
  if (kept.some((id, index) => id !== `${post.id}-${index}`) || kept.length < post.pictures || ids.slice(post.pictures).some(own)) {
    throw unprocessable('media_not_removable');
  }
  // The rule of a post's pictures is checked with those it has as they are attached.
  return stagedUploadsFor(ctx, viewer, { ids: ids.slice(post.pictures), max: LIMITS.imagesPerPost });
}

/**
 * POST /api/v1/statuses. What the apps' fields become here:
 * - the text's `@name` of a group posts into that group, of a person mentions them;
 * - `private` visibility is a post into a private group, so it is taken only with one named; `direct`
 *   (and `private` without such a group) would publish what its author meant to keep close, so both
 *   are refused;
 * - a reply to a post is a comment when a comment can carry it (text within a comment's limits, no
 *   content warning, no group), else a post replying to it; a reply to a comment is a comment under
 *   it, or refused by the comment's rules, as a post cannot answer a comment.
 * Runs on the caller's transaction (kept once per Idempotency-Key by the route).
 */
export async function createStatus(ctx: ServiceContext, viewer: Viewer, body: NewStatusBody): Promise<Status> {
  const text = body.status ?? '';
  const names = localNamesIn(text);
  const named = await namedHere(ctx.db, names);
  const groups = names.filter((n) => named.groups.has(n.toLowerCase()) && !named.people.has(n.toLowerCase()));
  const people = names.filter((n) => named.people.has(n.toLowerCase()));
  const visibility = body.visibility ?? 'public';
  const intoPrivateGroup = groups.some((n) => named.groups.get(n.toLowerCase())?.isPrivate);
  if (visibility === 'direct' || (visibility === 'private' && !intoPrivateGroup)) throw unprocessable('visibility_unsupported');
  // A sensitive flag without words for the warning still hides the post behind one.
  const contentWarning = warningOf(body);

  const reply = body.in_reply_to_id ? statusRefOf(body.in_reply_to_id) : null;
  if (body.in_reply_to_id && !reply) throw notFound('didnt_find_post');
  // A reply takes as many pictures as a comment, whichever it becomes.
  const uploads = await stagedUploadsFor(ctx, viewer, { ids: listOf(body.media_ids), max: postImagesMax(reply !== null) });
  const images = uploads.length;
  const fitsComment = contentWarning === null && groups.length === 0 && validateCommentText(text) === null;
  if (reply && (reply.kind === 'comment' || fitsComment)) {
    const comment = await createComment(ctx, viewer, { text, parent: reply.id, mentions: people, images });
    await attachStagedUploads(ctx, { kind: 'comment', id: comment._id }, uploads);
    return getStatus(ctx, viewer, commentStatusId(comment._id));
  }
  const post = await createPost(ctx, viewer, {
    text,
    mentions: people,
    groups,
    replyingTo: reply?.id ?? null,
    contentWarning,
    images,
  });
  await attachStagedUploads(ctx, { kind: 'post', id: post._id }, uploads);
  return getStatus(ctx, viewer, post._id);
}

/**
 * DELETE /api/v1/statuses/:id: the caller's post or comment, answered as it was with its text as
 * written. Answers the media keys to remove once the transaction has committed.
 */
export async function deleteStatus(ctx: ServiceContext, viewer: Viewer, id: string): Promise<{ status: Status & { text: string }; keys: string[] }> {
  const ref = statusRefOf(id);
  if (!ref) throw notFound('didnt_find_post');
  const status = { ...(await getStatus(ctx, viewer, id)), text: await writtenText(ctx, viewer, ref) };
  return { status, keys: ref.kind === 'post' ? await deletePost(ctx, viewer, ref.id) : await deleteComment(ctx, viewer, ref.id) };
}

/** The text of a post or comment the viewer may read, as its author wrote it. */
async function writtenText(ctx: ServiceContext, viewer: Viewer, ref: { kind: 'post' | 'comment'; id: string }): Promise<string> {
  if (ref.kind === 'post') return (await getPostForViewer(ctx, viewer, ref.id)).text;
  const comment = await readableComment(ctx, viewer, ref.id);
  if (!comment) throw notFound('didnt_find_post');
  return comment.text;
}

/**
 * PUT /api/v1/statuses/:id: the web app's edit of a post (its rules, history and hourly count); the
 * warning is kept unless the app sends one, as apps send every field of their edit box.
 */
export async function editStatus(ctx: ServiceContext, viewer: Viewer, input: { id: string; body: StatusEditBody }): Promise<Status> {
  const { id, body } = input;
  const ref = statusRefOf(id);
  if (!ref) throw notFound('didnt_find_post');
  if (ref.kind === 'comment') {
    await getStatus(ctx, viewer, id);
    throw unprocessable('comment_not_editable');
  }
  const text = body.status ?? '';
  const named = await namedHere(ctx.db, localNamesIn(text));
  const asked = body.spoiler_text !== undefined || body.sensitive !== undefined;
  const post = await editPost(ctx, viewer, {
    postId: ref.id,
    text,
    mentions: localNamesIn(text).filter((n) => named.people.has(n.toLowerCase())),
    ...(asked ? { contentWarning: warningOf(body) } : {}),
  });
  // Without `media_ids` the pictures stay as they are.
  if (body.media_ids !== undefined) {
    const uploads = await addedUploads(ctx, viewer, { id: ref.id, pictures: post.media.length }, listOf(body.media_ids));
    await attachStagedUploads(ctx, { kind: 'post', id: ref.id }, uploads);
  }
  return getStatus(ctx, viewer, id);
}

/** GET /api/v1/statuses/:id/history: the earlier versions of a post, oldest first, then the status as it is. */
export async function statusHistory(ctx: ServiceContext, viewer: Viewer | null, id: string): Promise<StatusVersion[]> {
  const status = await getStatus(ctx, viewer, id);
  const ref = statusRefOf(id)!;
  const earlier = ref.kind === 'post' ? (await getPostHistory(ctx, viewer, ref.id)).versions.reverse() : [];
  const origin = originOf(ctx);
  const names = status.mentions.map((m) => m.acct);
  const version = (fields: Pick<StatusVersion, 'content' | 'spoiler_text' | 'created_at'>): StatusVersion => ({
    ...fields,
    sensitive: fields.spoiler_text !== '',
    account: status.account,
    media_attachments: status.media_attachments,
    emojis: [],
  });
  return [
    ...earlier.map((v) => version({ content: writingHtml(origin, v.text, names), spoiler_text: v.contentWarning ?? '', created_at: isoTime(v.writtenAt) })),
    version({ content: status.content, spoiler_text: status.spoiler_text, created_at: status.edited_at ?? status.created_at }),
  ];
}

/** GET /api/v1/statuses/:id/source: a status the caller may read, as written. */
export async function statusSource(ctx: ServiceContext, viewer: Viewer, id: string): Promise<StatusSource> {
  const status = await getStatus(ctx, viewer, id);
  return { id, text: await writtenText(ctx, viewer, statusRefOf(id)!), spoiler_text: status.spoiler_text };
}

/** POST /api/v1/statuses/:id/favourite and /unfavourite: sets the caller's like, as the web app's like does. */
export async function setFavourite(ctx: ServiceContext, viewer: Viewer, input: { id: string; liked: boolean }): Promise<Status> {
  const ref = statusRefOf(input.id);
  if (!ref) throw notFound('didnt_find_post');
  if (ref.kind === 'post') await likePost(ctx, viewer, { postId: ref.id, liked: input.liked });
  else await likeComment(ctx, viewer, { commentId: ref.id, liked: input.liked });
  return getStatus(ctx, viewer, input.id);
}

/** POST /api/v1/statuses/:id/reblog: nothing is boosted here, whatever the status. */
export function reblog(): never {
  throw unprocessable('no_reblogs');
}
