import { DELETED } from '#core/limits';
import type { Post } from '../../lib/api/types';

// Apart from the actions (usePostModeration), so the card can tell whether its menu has anything
// to offer without loading the menu.

/** One of the post's groups where the caller is an admin (or the owner), with what the menu offers there. */
export interface AdminGroup {
  id: string;
  name: string;
  /** The post is that group's pinned post. */
  pinned: boolean;
  /** The post's author is banned there. */
  authorBanned: boolean;
  /** Ban and unban are offered: never for the caller's own post (the owner cannot be banned, an admin only by the owner). */
  canBan: boolean;
}

/**
 * The groups of the post's adminGroups indexes, in the post's order. The groups its author owns
 * come with the post (a copy cached before they did tells only the caller's own), and the server
 * refuses a ban there anyway, with ban_owner shown as the ban's toast.
 */
export function adminGroupsOf(post: Post): AdminGroup[] {
  const authorKnown = post.author.username !== DELETED && !!post.author.pfp;
  const out: AdminGroup[] = [];
  for (const index of post.adminGroups ?? []) {
    const group = post.groups[index];
    if (!group?._id) continue;
    const authorOwns = (post.authorOwnedGroups ?? []).includes(index) || (post.itsme && post.ownedGroups.includes(index));
    out.push({
      id: group._id,
      name: group.name,
      pinned: post.pinnedGroups.includes(index),
      authorBanned: post.bannedGroups.includes(index),
      canBan: authorKnown && !post.itsme && !authorOwns,
    });
  }
  return out;
}
