import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { groupsApi } from '#core/api/groups';
import { callApi, errorKeyOf } from '../../lib/api/client';
import type { Post } from '../../lib/api/types';
import { useDb } from '../../lib/db/useDb';
import { translateMessage } from '../../lib/i18n';
import { isGroupQuery } from '../../lib/query/keys';
import { reloadPost } from '../../lib/query/posts';
import { toast } from '../../lib/toast';
import type { AdminGroup } from './admin-groups';

/** DELETE /group/{groupId}/p/{postId}: out of the group (deleted when the group is private). */
export const removeFromGroup = (groupId: string, postId: string) => callApi(groupsApi.removePost, { params: { groupId, postId } });

/** PUT /group/{groupName}/pin/{postId} or PUT /group/{groupName}/unpin (a group has one pinned post). */
export const setGroupPin = (groupName: string, postId: string, pin: boolean) =>
  pin ? callApi(groupsApi.pin, { params: { name: groupName, postId } }) : callApi(groupsApi.unpin, { params: { name: groupName } });

/** PUT /group/{groupName}/ban/{pfp} or .../unban/{pfp}; pfp is the user's id. */
export const setGroupBan = (groupName: string, pfp: string, ban: boolean) =>
  callApi(ban ? groupsApi.ban : groupsApi.unban, { params: { name: groupName, pfp } });

/**
 * The group-admin actions of the post card menu. Whatever the outcome, the post
 * is fetched again (its pinned and banned indexes, or its absence), the shown listings reload and
 * so does the group's page (its pinned post, its counts and member lists).
 */
export function usePostModeration(post: Post) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const db = useDb();
  const postId = post._id;

  const refresh = useCallback(
    async (groupName: string) => {
      await Promise.all([
        reloadPost(queryClient, postId, db),
        queryClient.invalidateQueries({ predicate: (query) => isGroupQuery(query.queryKey, db.name, groupName) }),
      ]);
    },
    [queryClient, db, postId],
  );

  const remove = useCallback(
    async (group: AdminGroup) => {
      try {
        await removeFromGroup(group.id, postId);
        toast.info('info/post_removed');
      } catch (err) {
        console.error('remove post from group:', translateMessage(t, `error/${errorKeyOf(err)}`));
      }
      await refresh(group.name);
    },
    [postId, refresh, t],
  );

  const togglePin = useCallback(
    async (group: AdminGroup) => {
      try {
        await setGroupPin(group.name, postId, !group.pinned);
      } catch (err) {
        console.error(group.pinned ? 'unpin post:' : 'pin post:', translateMessage(t, `error/${errorKeyOf(err)}`));
      }
      await refresh(group.name);
    },
    [postId, refresh, t],
  );

  const toggleBan = useCallback(
    async (group: AdminGroup) => {
      const ban = !group.authorBanned;
      try {
        await setGroupBan(group.name, post.author.pfp ?? '', ban);
        toast.info(ban ? 'info/user_banned' : 'info/user_unbanned');
      } catch (err) {
        toast.error(`error/${errorKeyOf(err)}`);
      }
      await refresh(group.name);
    },
    [post.author.pfp, refresh],
  );

  return { remove, togglePin, toggleBan };
}
