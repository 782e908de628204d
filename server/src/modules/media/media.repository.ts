import { sql } from 'kysely';
import { isPostgres, toBool } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { postIsPrivate } from '../groups/group-access.js';
import { withImageAlt } from './image-alts.js';
import type { AvatarKind } from './media-urls.js';

/**
 * Queries of the media module: who owns an image and whether it must stay private (group-access
 * decides the latter).
 */

export interface ImageOwner {
  kind: 'post' | 'comment';
  id: string;
  postId: string;
  authorId: string | null;
  images: number;
  deleted: boolean;
  isPrivate: boolean;
}

/** The post or comment an image id belongs to, with its thread's privacy. */
export async function findImageOwner(db: Executor, id: string): Promise<ImageOwner | undefined> {
  const post = await db
    .selectFrom('posts')
    .select(['posts.id', 'posts.author_id', 'posts.images'])
    .select(postIsPrivate('posts.id').as('is_private'))
    .where('posts.id', '=', id)
    .executeTakeFirst();
  if (post) {
    return {
      kind: 'post',
      id: post.id,
      postId: post.id,
      authorId: post.author_id,
      images: post.images,
      deleted: false,
      isPrivate: toBool(post.is_private),
    };
  }
  const comment = await db
    .selectFrom('comments')
    .select(['comments.id', 'comments.post_id', 'comments.author_id', 'comments.images', 'comments.deleted'])
    .select(postIsPrivate('comments.post_id').as('is_private'))
    .where('comments.id', '=', id)
    .executeTakeFirst();
  if (!comment) return undefined;
  return {
    kind: 'comment',
    id: comment.id,
    postId: comment.post_id,
    authorId: comment.author_id,
    images: comment.images,
    deleted: toBool(comment.deleted),
    isPrivate: toBool(comment.is_private),
  };
}

/**
 * Records that image `index` exists (images is the count, max(index) + 1), its description (alt
 * text, '' for none) and the storage time of its bytes as the owner's media version. Versions only
 * grow, so a slower concurrent upload does not bring back an older one. The descriptions are one
 * stored list, so the row is read and written in one transaction (locked on PostgreSQL; SQLite
 * runs one writer at a time), and two images uploaded at once both keep theirs.
 */
export async function recordImage(
  db: Executor,
  owner: Pick<ImageOwner, 'kind' | 'id'>,
  index: number,
  version: number,
  alt = '',
): Promise<void> {
  const table = owner.kind === 'post' ? 'posts' : 'comments';
  const run = async (trx: Executor) => {
    const row = await trx
      .selectFrom(table)
      .select('image_alts')
      .where('id', '=', owner.id)
      .$if(isPostgres(trx), (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!row) return;
    await trx
      .updateTable(table)
      .set((eb) => ({
        images: sql<number>`case when ${eb.ref('images')} < ${index + 1} then ${index + 1} else ${eb.ref('images')} end`,
        media_version: sql<number>`case when ${eb.ref('media_version')} < ${version} then ${version} else ${eb.ref('media_version')} end`,
        image_alts: withImageAlt(row.image_alts, index, alt),
      }))
      .where('id', '=', owner.id)
      .execute();
  };
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}

/** Records the storage time of a user's or group's new avatar as its version (only ever growing). */
export async function recordAvatarVersion(db: Executor, kind: AvatarKind, id: string, version: number): Promise<void> {
  if (kind === 'pfp') {
    await db.updateTable('users').set({ pfp_version: version }).where('id', '=', id).where('pfp_version', '<', version).execute();
  } else {
    await db.updateTable('groups').set({ gp_version: version }).where('id', '=', id).where('gp_version', '<', version).execute();
  }
}
