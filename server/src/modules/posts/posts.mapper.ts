import type { Post } from '#core/api/posts';
import { DELETED } from '#core/limits';
import { canPostIn, isAdminRole } from '../../policy/group-access.js';
import { readImageAlts } from '../../policy/image-alts.js';
import { remoteOriginOf } from '../../lib/remote-origin.js';
import { avatarUrl, imageUrls, remoteMediaUrl } from '../../policy/media-urls.js';
import { storedRemotePictures } from './remote-pictures.js';
import type { PostBaseRow, PostGroupStandingRow, PostMentionRow } from './posts.repository.js';

/** The post card, as the contract describes it. */
export type PostView = Post;

/** What signs media URLs of private posts: the app (its config holds the secret) or the secret. */
export type MediaSigner = string | { config: { jwtSecret: string } };

/**
 * The one place a post's image URLs are made. A post in any private group gets signed URLs
 * (an <img> carries no token); without a signer they stay plain and the media route refuses them.
 */
export function postMediaUrls(
  post: { id: string; images: number; isPrivate: boolean; version: number },
  signer: MediaSigner | undefined,
): string[] {
  return imageUrls(signer ?? '', { ...post, isPrivate: post.isPrivate && signer !== undefined });
}

/**
 * A remote post's pictures, shown through this server's proxy (see media/remote-media): their URLs
 * name the address with the secret, so without a signer there are none to show.
 */
function remotePictures(stored: string | null, signer: MediaSigner | undefined): { media: string[]; alts: string[] } | null {
  const valid = storedRemotePictures(stored);
  if (valid === null) return null;
  if (signer === undefined) return { media: [], alts: [] };
  return { media: valid.map((p) => remoteMediaUrl(signer, p.url)), alts: valid.map((p) => (typeof p.alt === 'string' ? p.alt : '')) };
}

/** Everything loaded for one page of posts, keyed for the mapper. */
export interface PostViewContext {
  viewerId: string | null;
  groupsByPost: Map<string, PostGroupStandingRow[]>;
  mentionsByPost: Map<string, PostMentionRow[]>;
  /** The community that passed each remote post on, where one did. */
  sharersByPost?: Map<string, { _id: string; username: string }>;
  signer: MediaSigner | undefined;
}

function indexesWhere<T>(items: T[], test: (item: T) => boolean): number[] {
  const out: number[] = [];
  items.forEach((item, index) => {
    if (test(item)) out.push(index);
  });
  return out;
}

export function toPostView(row: PostBaseRow, ctx: PostViewContext): PostView {
  const groupRows = ctx.groupsByPost.get(row.id) ?? [];
  const mentionRows = ctx.mentionsByPost.get(row.id) ?? [];
  const viewerId = ctx.viewerId;
  const resolved = groupRows.filter((g) => g.group_id !== null);

  const canReply =
    viewerId !== null &&
    resolved.every((g) =>
      canPostIn({ everyone_can_post: g.everyone_can_post ?? false }, { role: g.viewer_role, banned: g.viewer_banned, requested: false }),
    );

  const author = row.author_id && row.author_username
    ? { username: row.author_username, pfp: row.author_id, pfpUrl: avatarUrl('pfp', row.author_id, Number(row.author_pfp_version ?? 0)) }
    : { username: DELETED, pfp: 'default', pfpUrl: avatarUrl('pfp', null, 0) };

  const remote = remotePictures(row.remote_media, ctx.signer);
  let replyingTo: string | null = null;
  if (row.reply_to) replyingTo = row.original_readable ? row.reply_to : DELETED;

  return {
    _id: row.id,
    text: row.text,
    author,
    createdAt: Number(row.created_at),
    likes: Number(row.likes),
    liked: row.liked,
    comments: Number(row.comments),
    replyingTo,
    groups: groupRows.map((g) => ({ _id: g.group_id, name: g.current_name ?? g.stored_name })),
    mentions: mentionRows.map((m) => ({ _id: m.user_id, username: m.current_name ?? m.stored_name })),
    itsme: viewerId !== null && row.author_id === viewerId,
    adminGroups: indexesWhere(groupRows, (g) => isAdminRole(g.viewer_role)),
    pinnedGroups: indexesWhere(groupRows, (g) => g.group_id !== null && g.pinned_post_id === row.id),
    ownedGroups: indexesWhere(groupRows, (g) => viewerId !== null && g.group_id !== null && g.owner_id === viewerId),
    bannedGroups: indexesWhere(groupRows, (g) => g.author_banned),
    authorOwnedGroups: indexesWhere(groupRows, (g) => g.group_id !== null && row.author_id !== null && g.owner_id === row.author_id),
    canReply,
    images: remote ? remote.media.length : Number(row.images),
    media: remote
      ? remote.media
      : postMediaUrls(
          {
            id: row.id,
            images: Number(row.images),
            isPrivate: row.is_private,
            version: Number(row.media_version),
          },
          ctx.signer,
        ),
    alts: remote ? remote.alts : readImageAlts(row.image_alts, Number(row.images)),
    contentWarning: row.content_warning,
    editedAt: row.edited_at === null ? null : Number(row.edited_at),
    remote: remoteOriginOf(row.ap_id, row.ap_url),
    sharedBy: ctx.sharersByPost?.get(row.id),
  };
}
