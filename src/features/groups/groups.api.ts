import { type Group, type GroupBody, groupsApi } from '#core/api/groups';
import { mediaApi } from '#core/api/media';
import type { GroupNotificationLevel } from '#core/limits';
import { callApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { listKeys, queryKeys, storedListKey } from '../../lib/query/keys';
import { fetchGroup, useStoredSubject } from '../../lib/query/stored';

export type { Group } from '#core/api/groups';

/** What the group form submits: every field of the create and update body. */
export type GroupInput = Required<GroupBody>;

/**
 * The group from the local database, fetched again from the server. A copy stored before the
 * server sent gpUrl, requested or notification lacks them: the screens read each as possibly absent.
 */
export function useGroup(name: string) {
  const fetch = (db: KruhDb, signal: AbortSignal) => fetchGroup(db, name, signal);
  const { data: group, ...state } = useStoredSubject<Group>({ key: name, table: (db) => db.groups, queryKey: (dbName) => queryKeys.group(dbName, name), fetch });
  return { group, ...state };
}

export { joinGroup } from '../../lib/api/memberships';
export const leaveGroup = (name: string) => callApi(groupsApi.leave, { params: { name } });
export const requestToJoin = (name: string) => callApi(groupsApi.request, { params: { name } });
export const withdrawRequest = (name: string) => callApi(groupsApi.withdraw, { params: { name } });

/** Whether a newcomer waits for an admin: a private group or one that admits by request. */
export const joinNeedsApproval = (group: Group) => group.requestJoin || group.private;

/** An admin's answer to a join request: the name of its entry in the contract. */
export type RequestAnswer = 'accept' | 'deny';

export const answerRequest = (name: string, answer: RequestAnswer, pfp: string) => callApi(groupsApi[answer], { params: { name, pfp } });

/** An admin's action on a member or a banned user: the name of its entry in the contract. */
export type ModerationAction = 'admin' | 'deadmin' | 'ban' | 'unban';

export const moderate = (name: string, action: ModerationAction, pfp: string) => callApi(groupsApi[action], { params: { name, pfp } });

/**
 * What an accepted ban or unban changes in the stored copies, so the group's counts, the banned
 * link and the list shown change at once (the screens read these; a refetch confirms them later).
 * A ban is made from the members list, an unban from the banned one.
 */
export async function storeModeration(db: KruhDb, name: string, action: 'ban' | 'unban', pfp: string): Promise<void> {
  const from = storedListKey(listKeys.groupUsers(name, action === 'ban' ? 'members' : 'banned'));
  await db.transaction('rw', db.groups, db.feedPages, async () => {
    await db.groups.where('name').equalsIgnoreCase(name).modify((row) => {
      const group = row.data as Group;
      row.data =
        action === 'ban'
          ? { ...group, members: Math.max(0, group.members - 1), bans: group.bans + 1 }
          : { ...group, bans: Math.max(0, group.bans - 1) };
    });
    await db.feedPages.where('feedKey').equals(from).modify((page) => {
      page.ids = page.ids.filter((id) => id !== pfp);
    });
  });
}

/** PATCH /group/{name}/owner/{pfp}: the owner hands the group to a member and stays an admin. */
export const transferOwnership = (name: string, pfp: string) => callApi(groupsApi.owner, { params: { name, pfp } });

export const setNotificationLevel = (groupId: string, notification: GroupNotificationLevel) =>
  callApi(groupsApi.notification, { params: { groupId }, body: { notification } });

/** POST /group (create) or PATCH /group/{id}/update; a create carries one key per submitted form. */
export function saveGroup(input: GroupInput, options: { id?: string; idempotencyKey?: string } = {}) {
  if (options.id) return callApi(groupsApi.update, { params: { groupId: options.id }, body: input });
  return callApi(groupsApi.create, { body: input }, options.idempotencyKey ? { headers: { 'Idempotency-Key': options.idempotencyKey } } : undefined);
}

export function uploadGroupAvatar(groupId: string, file: Blob) {
  const form = new FormData();
  form.append('gp', file);
  return callApi(mediaApi.uploadGroupPicture, { params: { groupId } }, { formData: form });
}

export const deleteGroup = (groupId: string) => callApi(groupsApi.delete, { params: { groupId } });
