import { type RawBuilder, sql } from 'kysely';
import { lockingRead } from '../../db/dialect.js';
import { inTransaction, toBool } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { postIsPrivate } from '../../policy/post-visibility.js';
import { withImageAlt } from '../../policy/image-alts.js';
import type { AvatarKind } from '../../policy/media-urls.js';

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
  /** A post answering another, which takes as many pictures as a comment. */
  isReply: boolean;
  deleted: boolean;
  isPrivate: boolean;
  /** The version of its images' bytes (0: unknown, from before versions were kept). */
  version: number;
}

/**
 * The version a write of new bytes takes: the time of the write in epoch ms, and always past the
 * one before, so two writes within one millisecond (or a clock set back) still give two versions.
 * The number lives in the database, which every server process shares, rather than in the store.
 */
const nextVersion = (column: string, now: number): RawBuilder<number> =>
  sql<number>`case when ${sql.ref(column)} < ${now} then ${now} else ${sql.ref(column)} + 1 end`;

/** The post or comment an image id belongs to, with its thread's privacy. */
export async function findImageOwner(db: Executor, id: string): Promise<ImageOwner | undefined> {
  const post = await db
    .selectFrom('posts')
    .select(['posts.id', 'posts.author_id', 'posts.images', 'posts.reply_to', 'posts.media_version'])
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
      isReply: post.reply_to !== null,
      deleted: false,
      isPrivate: toBool(post.is_private),
      version: Number(post.media_version),
    };
  }
  const comment = await db
    .selectFrom('comments')
    .select(['comments.id', 'comments.post_id', 'comments.author_id', 'comments.images', 'comments.deleted', 'comments.media_version'])
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
    isReply: false,
    deleted: toBool(comment.deleted),
    isPrivate: toBool(comment.is_private),
    version: Number(comment.media_version),
  };
}

/**
 * Records that image `index` exists (images is the count, max(index) + 1) and its description (alt
 * text, '' for none), and gives the owner's images a new media version (nextVersion), which it
 * answers (0 when the owner is gone). Called once the bytes are stored, so no reply names a version
 * before its bytes can be read. The descriptions are one stored list, so the row is read and
 * written in one transaction (locked on PostgreSQL; SQLite runs one writer at a time), and two
 * images uploaded at once both keep theirs.
 */
export async function recordImage(
  db: Executor,
  owner: Pick<ImageOwner, 'kind' | 'id'>,
  index: number,
  alt = '',
  now = Date.now(),
): Promise<number> {
  const table = owner.kind === 'post' ? 'posts' : 'comments';
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom(table)
      .select('image_alts')
      .where('id', '=', owner.id)
      .$call(lockingRead(trx))
      .executeTakeFirst();
    if (!row) return 0;
    const updated = await trx
      .updateTable(table)
      .set((eb) => ({
        images: sql<number>`case when ${eb.ref('images')} < ${index + 1} then ${index + 1} else ${eb.ref('images')} end`,
        media_version: nextVersion('media_version', now),
        image_alts: withImageAlt(row.image_alts, index, alt),
      }))
      .where('id', '=', owner.id)
      .returning('media_version')
      .executeTakeFirst();
    return Number(updated?.media_version ?? 0);
  });
}

/** Gives a user's or group's avatar a new version once its bytes are stored, and answers it (0: no such owner). */
export async function recordAvatarVersion(db: Executor, kind: AvatarKind, id: string, now = Date.now()): Promise<number> {
  const row =
    kind === 'pfp'
      ? await db.updateTable('users').set({ pfp_version: nextVersion('pfp_version', now) }).where('id', '=', id).returning('pfp_version as version').executeTakeFirst()
      : await db.updateTable('groups').set({ gp_version: nextVersion('gp_version', now) }).where('id', '=', id).returning('gp_version as version').executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** The version of a user's or group's avatar; undefined when there is no such user or group. */
export async function findAvatarVersion(db: Executor, kind: AvatarKind, id: string): Promise<number | undefined> {
  const row =
    kind === 'pfp'
      ? await db.selectFrom('users').select('pfp_version as version').where('id', '=', id).executeTakeFirst()
      : await db.selectFrom('groups').select('gp_version as version').where('id', '=', id).executeTakeFirst();
  return row ? Number(row.version) : undefined;
}
