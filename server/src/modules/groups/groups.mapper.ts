import { avatarUrl } from '../../policy/media-urls.js';
import { type Membership, canPostIn, isAdminRole } from '../../policy/group-access.js';
import type { GroupRecord, ListedUser } from './groups.repository.js';
import type { GroupUserItem } from '#core/api/common';
import type { Group } from '#core/api/groups';

/** The group as the caller sees it (GET /group/{name}). */
export type GroupView = Group;

/** Row -> API shapes of the groups module. */

export const toGroupRef = (group: Pick<GroupRecord, 'id' | 'name'>) => ({ _id: group.id, name: group.name });

export function toGroupView(
  group: GroupRecord,
  membership: Membership,
  extra: { logged: boolean; pinnedPost: string | null; notification: number | null },
): GroupView {
  return {
    _id: group.id,
    name: group.name,
    description: group.description,
    gp: group.id,
    gpUrl: avatarUrl('gp', group.id, Number(group.gp_version)),
    private: group.is_private,
    requestJoin: group.request_join,
    everyoneCanPost: group.everyone_can_post,
    members: group.members,
    bans: group.bans,
    pinnedPost: extra.pinnedPost,
    member: membership.role !== null,
    banned: membership.banned,
    owner: membership.role === 'owner',
    admin: isAdminRole(membership.role),
    logged: extra.logged,
    canUserPost: canPostIn(group, membership),
    requested: membership.requested,
    createdAt: group.created_at,
    notification: extra.notification,
  };
}

export function toListedUser(user: ListedUser, banned: boolean): GroupUserItem {
  return {
    _id: user.id,
    pfp: user.id,
    pfpUrl: avatarUrl('pfp', user.id, Number(user.pfp_version)),
    username: user.username,
    admin: isAdminRole(user.role),
    owner: user.role === 'owner',
    banned,
  };
}
