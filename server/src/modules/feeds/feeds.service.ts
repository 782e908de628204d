import type { Sort, TimeWindow } from '#core/listing';
import { PAGE_SIZES } from '#core/limits';
import { normalizeHashtag } from '#core/text';
import type { Executor } from '../../db/schema.js';
import { findUserIdByName } from '../../db/users.js';
import { forbidden, notFound } from '../../lib/app-error.js';
import { listingWindow, pageWindow } from '../../lib/paging.js';
import { canSeeGroupContent, membershipOf } from '../groups/group-access.js';
import { loadGroup } from '../groups/groups.service.js';
import { type MediaSigner, type PostScope, type PostView, listPosts } from '../posts/posts.service.js';

export interface FeedQuery {
  page?: number | undefined;
  limit?: number | undefined;
  sort?: Sort | undefined;
  time?: TimeWindow | undefined;
  before?: number | undefined;
}

export interface FeedPage {
  posts: PostView[];
  hasMore: boolean;
}

/** One page of posts of a scope, as the viewer may see them. */
export function feedPage(
  db: Executor,
  viewerId: string | null,
  scope: PostScope,
  query: FeedQuery,
  defaults: { sort: Sort; time: TimeWindow },
  signer: MediaSigner,
): Promise<FeedPage> {
  const window = pageWindow(query, PAGE_SIZES.posts);
  return listPosts(db, { viewerId, scope, ...listingWindow(query, defaults), window, signer });
}

export async function profileScope(db: Executor, username: string): Promise<PostScope> {
  const authorId = await findUserIdByName(db, username);
  if (!authorId) throw notFound('user_not_found');
  return { kind: 'author', authorId };
}

/** Posts of a group, named like on GET /group/{name}: a private group's list is for its members only. */
export async function groupScope(db: Executor, name: string, viewerId: string | null): Promise<PostScope> {
  const group = await loadGroup(db, name);
  if (!canSeeGroupContent(group, await membershipOf(db, group.id, viewerId))) throw forbidden('not_member');
  return { kind: 'group', groupId: group.id };
}

export function hashtagScope(tag: string): PostScope {
  return { kind: 'hashtag', tag: normalizeHashtag(tag.trim()) };
}

/** A search for posts; blank queries match nothing. */
export function searchScope(query: string | undefined): PostScope | null {
  const q = (query ?? '').trim();
  return q === '' ? null : { kind: 'search', query: q };
}
