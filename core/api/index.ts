import { accountApi } from './account.js';
import { authApi } from './auth.js';
import { blocksApi } from './blocks.js';
import { clientApi } from './client.js';
import { clientAccountApi } from './client-account.js';
import { clientReadsApi } from './client-reads.js';
import { clientWritesApi } from './client-writes.js';
import { clientNotificationsApi } from './client-notifications.js';
import { clientPushApi } from './client-push.js';
import { clientSearchApi } from './client-search.js';
import { clientMediaApi } from './client-media.js';
import { clientStreamingApi } from './client-streaming.js';
import { commentsApi } from './comments.js';
import { configApi } from './config.js';
import { feedsApi } from './feeds.js';
import { followsApi } from './follows.js';
import { gifsApi } from './gifs.js';
import { groupsApi } from './groups.js';
import { healthApi } from './health.js';
import { instanceApi } from './instance.js';
import { mediaApi } from './media.js';
import { moderationApi } from './moderation.js';
import { notificationsApi } from './notifications.js';
import { oauthApi } from './oauth.js';
import { passkeysApi } from './passkeys.js';
import { registrationApi } from './registration.js';
import { peopleApi } from './people.js';
import { reportsApi } from './reports.js';
import { postsApi } from './posts.js';
import { profilesApi } from './profiles.js';
import { pushApi } from './push.js';
import { searchApi } from './search.js';
import { suggestionsApi } from './suggestions.js';
import type { Endpoint } from './endpoint.js';

/**
 * Every call of the API by resource. The server registers each route from its entry, the web app
 * calls through the same entries, and the OpenAPI document is generated from the registered routes.
 */
export const api = {
  health: healthApi,
  config: configApi,
  auth: authApi,
  registration: registrationApi,
  account: accountApi,
  profiles: profilesApi,
  follows: followsApi,
  search: searchApi,
  suggestions: suggestionsApi,
  posts: postsApi,
  feeds: feedsApi,
  comments: commentsApi,
  media: mediaApi,
  groups: groupsApi,
  notifications: notificationsApi,
  gifs: gifsApi,
  push: pushApi,
  passkeys: passkeysApi,
  reports: reportsApi,
  blocks: blocksApi,
  moderation: moderationApi,
  instance: instanceApi,
  people: peopleApi,
  client: clientApi,
  oauth: oauthApi,
  clientAccount: clientAccountApi,
  clientReads: clientReadsApi,
  clientWrites: clientWritesApi,
  clientNotifications: clientNotificationsApi,
  clientPush: clientPushApi,
  clientSearch: clientSearchApi,
  clientMedia: clientMediaApi,
  clientStreaming: clientStreamingApi,
} as const;

/** Every entry of the contract, flattened. */
export const allEndpoints = (): Endpoint[] =>
  Object.values(api).flatMap((resource) => Object.values(resource as Record<string, Endpoint>));
