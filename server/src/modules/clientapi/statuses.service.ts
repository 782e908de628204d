import type { Context, Status } from '#core/api/client-entities';
import type { Comment } from '#core/api/comments';
import type { Post } from '#core/api/posts';
import { notFound } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { commentTree, listThread, readableComment } from '../comments/comments.service.js';
import { getPostForViewer, getPostsForViewer, inPrivateGroup } from '../posts/posts.service.js';
import { type AccountListPage, accountListPage, accountsByIds, originOf } from './accounts.service.js';
import { statusRefOf } from './client-ids.js';
import type { ClientPageQuery } from './client-paging.js';
import * as repo from './clientapi.repository.js';
import { commentStatus, postAuthorId, postStatus } from './status.mapper.js';
import { type WrittenStatus, writtenPostStatus, writtenStatus } from './written-statuses.js';

/**
 * Posts and comments as statuses, with their authors' accounts and the posts' privacy read once for
 * the whole page. `pinned` marks the posts pinned where they are listed.
 */
export async function asStatuses(
  ctx: ServiceContext,
  viewer: Viewer | null,
  items: { posts?: readonly Post[]; comments?: readonly Comment[]; pinned?: ReadonlySet<string> },
): Promise<{ posts: Status[]; comments: Status[] }> {
  const posts = items.posts ?? [];
  const comments = items.comments ?? [];
  const authors = [...posts.map((p) => p.author.pfp), ...comments.flatMap((c) => (c.author.pfp ? [c.author.pfp] : []))];
  // A post read with its page already says whether it is private; only the others are asked.
  const unknown = [...posts.filter((p) => inPrivateGroup(p) === undefined).map((p) => p._id), ...comments.map((c) => c.postId)];
  const [accounts, asked, repliedAuthors] = await Promise.all([
    accountsByIds(ctx, viewer, authors),
    repo.privatePostIds(ctx.db, unknown),
    repo.repliedAuthors(ctx.db, comments.map((c) => c._id)),
  ]);
  const privatePosts = new Set([...asked, ...posts.filter((p) => inPrivateGroup(p) === true).map((p) => p._id)]);
  const parts = { origin: originOf(ctx), accounts, privatePosts, repliedAuthors };
  return {
    posts: posts.map((post) => postStatus(post, parts, items.pinned ? { pinned: items.pinned.has(post._id) } : {})),
    comments: comments.map((comment) => commentStatus(comment, parts)),
  };
}

export async function postStatuses(ctx: ServiceContext, viewer: Viewer | null, posts: readonly Post[], pinned?: ReadonlySet<string>): Promise<Status[]> {
  return (await asStatuses(ctx, viewer, { posts, ...(pinned ? { pinned } : {}) })).posts;
}

/**
 * postStatuses of a page read with its authors' accounts (repo.withAuthorAccounts), written out. A
 * post whose author and privacy came with the page is written from them (and kept, see
 * written-statuses.ts); any other is made as postStatuses makes it.
 */
export async function writtenPageStatuses(ctx: ServiceContext, viewer: Viewer | null, page: { posts: readonly Post[]; authors: readonly repo.PersonRow[] }): Promise<WrittenStatus[]> {
  const origin = originOf(ctx);
  const authors = new Map(page.authors.map((row) => [row.id, row]));
  const authorOf = (post: Post) => authors.get(postAuthorId(post) ?? '');
  const others = page.posts.filter((post) => authorOf(post) === undefined || inPrivateGroup(post) === undefined);
  const made = new Map<Post, Status>();
  if (others.length > 0) (await postStatuses(ctx, viewer, others)).forEach((status, i) => made.set(others[i]!, status));
  return page.posts.map((post) => {
    const status = made.get(post);
    return status ? writtenStatus(status) : writtenPostStatus(viewer?.id ?? null, post, authorOf(post)!, { origin, private: inPrivateGroup(post)! });
  });
}

/** A comment the viewer may read, or didnt_find_post as for a post they may not. */
async function readComment(ctx: ServiceContext, viewer: Viewer | null, commentId: string): Promise<Comment> {
  const comment = await readableComment(ctx, viewer, commentId);
  if (!comment) throw notFound('didnt_find_post');
  return comment;
}

/** GET /api/v1/statuses/:id: a post, or a comment by its `c` id; hidden and missing alike didnt_find_post. */
export async function getStatus(ctx: ServiceContext, viewer: Viewer | null, id: string): Promise<Status> {
  const ref = statusRefOf(id);
  if (!ref) throw notFound('didnt_find_post');
  if (ref.kind === 'post') return (await postStatuses(ctx, viewer, [await getPostForViewer(ctx, viewer, ref.id)]))[0]!;
  return (await asStatuses(ctx, viewer, { comments: [await readComment(ctx, viewer, ref.id)] })).comments[0]!;
}

/** How many comments a thread's descendants list at most, and how many of its branches are opened. */
const DESCENDANTS_MAX = 200;
const BRANCHES_MAX = 40;

/**
 * The comments under a post or a comment, each followed by its own replies (oldest first within a
 * branch), as far as the caps above: one page of replies per branch opened.
 */
async function commentsUnder(ctx: ServiceContext, viewer: Viewer | null, parentId: string): Promise<Comment[]> {
  const out: Comment[] = [];
  let branches = 0;
  const walk = async (id: string): Promise<void> => {
    if (branches >= BRANCHES_MAX || out.length >= DESCENDANTS_MAX) return;
    branches += 1;
    const page = await listThread(ctx, viewer, { parentId: id, query: { sort: 'newest', time: 'all', limit: 50 } });
    for (const comment of page.comments.reverse()) {
      if (out.length >= DESCENDANTS_MAX) return;
      if (!comment.deleted) out.push(comment);
      if (comment.comments > 0) await walk(comment._id);
    }
  };
  await walk(parentId);
  return out;
}

/**
 * GET /api/v1/statuses/:id/context. A post starts its thread (a reply-with-post is a thread of its
 * own); a comment's ancestors are its post and the comments it answers, oldest first.
 */
export async function statusContext(ctx: ServiceContext, viewer: Viewer | null, id: string): Promise<Context> {
  const ref = statusRefOf(id);
  if (!ref) throw notFound('didnt_find_post');
  if (ref.kind === 'post') {
    await getPostForViewer(ctx, viewer, ref.id);
    const { comments } = await asStatuses(ctx, viewer, { comments: await commentsUnder(ctx, viewer, ref.id) });
    return { ancestors: [], descendants: comments };
  }
  const comment = await readComment(ctx, viewer, ref.id);
  const [post] = await getPostsForViewer(ctx.db, [comment.postId], viewer?.id ?? null, ctx.app);
  const chain: Comment[] = [];
  let node = await commentTree(ctx, viewer, { commentId: ref.id, query: { limit: 1 } });
  while (!node.pinned && node.children[0]) {
    chain.push(node);
    node = node.children[0];
  }
  const descendants = await commentsUnder(ctx, viewer, ref.id);
  const mapped = await asStatuses(ctx, viewer, { posts: post ? [post] : [], comments: [...chain, ...descendants] });
  return { ancestors: [...mapped.posts, ...mapped.comments.slice(0, chain.length)], descendants: mapped.comments.slice(chain.length) };
}

/** GET /api/v1/statuses/:id/favourited_by: who liked a post or comment the viewer may read. */
export async function favouritedBy(ctx: ServiceContext, viewer: Viewer | null, input: { id: string; query: ClientPageQuery }): Promise<AccountListPage> {
  const ref = statusRefOf(input.id);
  if (!ref) throw notFound('didnt_find_post');
  if (ref.kind === 'post') await getPostForViewer(ctx, viewer, ref.id);
  else await readComment(ctx, viewer, ref.id);
  const table = ref.kind === 'post' ? 'post_likes' : 'comment_likes';
  return accountListPage(ctx, viewer, input.query, (bounds) => repo.likerPage(ctx.db, table, ref.id, viewer?.id ?? null, bounds));
}
