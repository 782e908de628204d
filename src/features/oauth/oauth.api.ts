import { type AuthorizationDecision, type AuthorizationRequest, type AuthorizedApp, oauthApi } from '#core/api/oauth';
import { callApi } from '../../lib/api/client';
import type { KruhDb } from '../../lib/db/db';
import { storedList } from '../../lib/query/stored';

/** Where the account's authorised apps are kept, so the list shows offline once seen. */
export const AUTHORIZED_APPS_META_KEY = 'authorized-apps';

/** The fields of an app's request, read from the consent screen's address. */
export function requestOf(search: string): AuthorizationRequest & { state?: string } {
  const query = new URLSearchParams(search);
  const fields: Record<string, string> = {};
  for (const name of ['client_id', 'redirect_uri', 'scope', 'response_type', 'code_challenge', 'code_challenge_method', 'state']) {
    const value = query.get(name);
    if (value !== null) fields[name] = value;
  }
  return { client_id: '', ...fields };
}

/** Whether the app asks its person to sign in even with a session (to choose the account). */
export const forcesLogin = (search: string): boolean => ['true', '1'].includes(new URLSearchParams(search).get('force_login') ?? '');

/** The sign-in page, coming back to the request without `force_login` (the new sign-in answered it). */
export function signInAddressOf(search: string): string {
  const query = new URLSearchParams(search);
  query.delete('force_login');
  return `/login?${new URLSearchParams({ next: `/oauth/authorize?${query.toString()}` }).toString()}`;
}

/** What the app asks, as the server checked it (the state stays on this side: only the answer carries it back). */
export const fetchPrompt = ({ state: _state, ...request }: AuthorizationRequest & { state?: string }, signal?: AbortSignal) =>
  callApi(oauthApi.prompt, { query: request }, { signal });

export const decide = (decision: AuthorizationDecision) => callApi(oauthApi.decide, { body: decision });

export async function fetchAuthorizedApps(db: KruhDb, signal?: AbortSignal): Promise<AuthorizedApp[]> {
  const { apps } = await callApi(oauthApi.authorizations, {}, { signal });
  await db.meta.put({ key: AUTHORIZED_APPS_META_KEY, value: apps });
  return apps;
}

/** Takes an app's access back; one already gone (revoked on another device) leaves the list as well. */
export const revokeApp = (db: KruhDb, id: string): Promise<string> =>
  storedList<AuthorizedApp>(AUTHORIZED_APPS_META_KEY).removeOne(db, (app) => app.id !== id, () => callApi(oauthApi.revokeAuthorization, { params: { id } }));
