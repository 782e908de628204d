import { followsApi } from '#core/api/follows';
import { groupsApi } from '#core/api/groups';
import { callApi } from './client';

/**
 * Following a user and joining a group: called from their own pages and from the suggestions on
 * an empty feed, so they live outside either feature.
 */
export const follow = (userId: string) => callApi(followsApi.follow, { body: { following: userId } });
export const joinGroup = (name: string) => callApi(groupsApi.join, { params: { name } });
