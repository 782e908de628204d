import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type InviteItem, REGISTRATION_PAGE_SIZE, type RegistrationSettings, invitePath, registrationApi } from '#core/api/registration';
import { callApi } from './api/client';
import { useDb } from './db/useDb';
import { usePagedList } from './query/paged-list';
import { listKeys, queryKeys } from './query/keys';
import { storedSetting } from './query/stored';

/**
 * How new accounts come in: the registration mode, read by the sign-up screen and the moderators'
 * settings and kept in the account's database, so both show it offline; the applications waiting
 * for approval and the caller's invite links, page by page through the paging engine. Changing any
 * of them needs the server at once (as every moderation action), so those are direct calls.
 */
const REGISTRATION_META_KEY = 'registration';

/** The registration settings as last read (undefined until then), read again from the server when shown. */
export const useRegistration = storedSetting(REGISTRATION_META_KEY, queryKeys.registration, (signal) => callApi(registrationApi.settings, {}, { signal })).useValue;

/** Saves the mode and the members' right to invite (instance moderators, online only). */
export const saveRegistration = (settings: RegistrationSettings) => callApi(registrationApi.update, { body: settings });

/** After a registration call: the settings read again (the moderation lists are read again by the call itself). */
export function useRefreshRegistration() {
  const db = useDb();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.registration(db.name) }), [db, queryClient]);
}

const byId = (item: { _id: string }) => item._id;

/** Sign-ups waiting for approval, oldest first (instance moderators). */
export const useApplications = () =>
  usePagedList({
    list: listKeys.moderation('applications', 'all'),
    endpoint: registrationApi.applications,
    field: 'applications',
    idOf: byId,
    limit: REGISTRATION_PAGE_SIZE,
    staleTime: 0,
  });

/** Approves or refuses a sign-up (instance moderators, online only). */
export const decideApplication = (userId: string, decision: 'approve' | 'refuse') =>
  callApi(registrationApi.decide, { params: { userId }, body: { decision } });

/** The caller's invite links, newest first. */
export const useOwnInvites = (enabled = true) =>
  usePagedList({
    list: listKeys.moderation('invites', 'own'),
    endpoint: registrationApi.invites,
    field: 'invites',
    idOf: byId,
    limit: REGISTRATION_PAGE_SIZE,
    staleTime: 0,
    enabled,
  });

/** Makes an invite link (online only); its message for the moderation call that shows it. */
export async function createInvite(maxUses: number, days: number): Promise<{ message: string; invite: InviteItem }> {
  const invite = await callApi(registrationApi.createInvite, { body: { maxUses, days } });
  return { message: 'info/invite_created', invite };
}

export const revokeInvite = (inviteId: string) => callApi(registrationApi.revokeInvite, { params: { inviteId } });

/** The full address of an invite link, as it is shared. */
export const inviteUrl = (code: string, origin: string = window.location.origin) => `${origin}${invitePath(code)}`;
