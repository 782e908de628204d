import { useQueryClient } from '@tanstack/react-query';
import { type InstanceSettings, type InstanceSettingsBody, instanceApi } from '#core/api/instance';
import { callApi } from './api/client';
import { useDb } from './db/useDb';
import { queryKeys } from './query/keys';
import { storedSetting } from './query/stored';

export type { InstanceSettings };

/**
 * What the instance says about itself (GET /instance): read by the about page, the sign-up form and
 * the moderators' settings, kept in the account's database so it shows offline once seen.
 */
const INSTANCE_META_KEY = 'instance';

/** The settings as last stored, read again from the server whenever a screen showing them opens. */
export const useInstance = storedSetting(INSTANCE_META_KEY, queryKeys.instance, (signal) => callApi(instanceApi.get, {}, { signal })).useValue;

/** PUT /instance (instance moderators, online only): what the server kept replaces the stored copy. */
export function useSaveInstance() {
  const db = useDb();
  const queryClient = useQueryClient();
  return async (body: InstanceSettingsBody): Promise<{ message: string; instance: InstanceSettings }> => {
    const reply = await callApi(instanceApi.update, { body });
    await db.meta.put({ key: INSTANCE_META_KEY, value: reply.instance });
    queryClient.setQueryData(queryKeys.instance(db.name), reply.instance);
    return reply;
  };
}
