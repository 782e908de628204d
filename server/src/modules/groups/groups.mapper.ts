import type { GroupRow } from '../../db/schema';
import { avatarUrl } from '../media/media-urls';
import { type Membership, canPostIn, isAdminRole } from './group-access';
import type { ListedUser } from './groups.repository';
import type { GroupUserItem } from '../../lib/schemas';
import type { GroupView } from './groups.schemas';

/** Row -> API shapes of the groups module. */

export const toGroupRef = (group: Pick<GroupRow, 'id' | 'name'>) => ({ _id: group.id, name: group.name });

export function toGroupView(
  group: GroupRow,
  membership: Membership,
  extra: { logged: boolean; pinnedPost: string | null; notification: number | null },
): GroupView {
  return {
    _id: group.id,
    name: group.name,
    description: group.description,
    gp: group.id,
    gpUrl: avatarUrl('gp', group.id, Number(group.gp_version)),
    private: group.is_private === 1,
    requestJoin: group.request_join === 1,
    everyoneCanPost: group.everyone_can_post === 1,
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
