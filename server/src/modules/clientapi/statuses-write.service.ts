import type { Status } from '#core/api/client-entities';
import type { NewStatus } from '#core/api/client-writes';
import { validateCommentText } from '#core/validation';
import type { Static } from '@sinclair/typebox';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { createComment, deleteComment, likeComment, readableComment } from '../comments/comments.service.js';
import { createPost, deletePost, getPostForViewer, likePost } from '../posts/posts.service.js';
import { commentStatusId, statusRefOf } from './client-ids.js';
import { namedHere } from './statuses-write.repository.js';
import { getStatus } from './statuses.service.js';

export type NewStatusBody = Static<typeof NewStatus>;

const unprocessable = (key: 'visibility_unsupported' | 'no_reblogs' | 'unknown_media') => new AppError(422, key);

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
  // No upload of the client API is kept yet, so any id names none of the caller's: refused rather
  // than posting the text without the pictures its author chose.
  if ([body.media_ids ?? []].flat().length > 0) throw unprocessable('unknown_media');
  const text = body.status ?? '';
  const warning = body.spoiler_text?.trim() ?? '';
  const names = localNamesIn(text);
  const named = await namedHere(ctx.db, names);
  const groups = names.filter((n) => named.groups.has(n.toLowerCase()) && !named.people.has(n.toLowerCase()));
  const people = names.filter((n) => named.people.has(n.toLowerCase()));
  const visibility = body.visibility ?? 'public';
  const intoPrivateGroup = groups.some((n) => named.groups.get(n.toLowerCase())?.isPrivate);
  if (visibility === 'direct' || (visibility === 'private' && !intoPrivateGroup)) throw unprocessable('visibility_unsupported');
  // A sensitive flag without words for the warning still hides the post behind one.
  const contentWarning = warning !== '' ? warning : flag(body.sensitive) ? 'Sensitive' : null;

  const reply = body.in_reply_to_id ? statusRefOf(body.in_reply_to_id) : null;
  if (body.in_reply_to_id && !reply) throw notFound('didnt_find_post');
  const fitsComment = contentWarning === null && groups.length === 0 && validateCommentText(text) === null;
  if (reply && (reply.kind === 'comment' || fitsComment)) {
    const comment = await createComment(ctx, viewer, { text, parent: reply.id, mentions: people });
    return getStatus(ctx, viewer, commentStatusId(comment._id));
  }
  const post = await createPost(ctx, viewer, {
    text,
    mentions: people,
    groups,
    replyingTo: reply?.id ?? null,
    contentWarning,
  });
  return getStatus(ctx, viewer, post._id);
}

/**
 * DELETE /api/v1/statuses/:id: the caller's post or comment, answered as it was with its text as
 * written. Answers the media keys to remove once the transaction has committed.
 */
export async function deleteStatus(ctx: ServiceContext, viewer: Viewer, id: string): Promise<{ status: Status & { text: string }; keys: string[] }> {
  const ref = statusRefOf(id);
  if (!ref) throw notFound('didnt_find_post');
  const status = await getStatus(ctx, viewer, id);
  if (ref.kind === 'post') {
    const { text } = await getPostForViewer(ctx, viewer, ref.id);
    return { status: { ...status, text }, keys: await deletePost(ctx, viewer, ref.id) };
  }
  const comment = await readableComment(ctx, viewer, ref.id);
  if (!comment) throw notFound('didnt_find_post');
  return { status: { ...status, text: comment.text }, keys: await deleteComment(ctx, viewer, ref.id) };
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
