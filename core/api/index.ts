import { accountApi } from './account';
import { authApi } from './auth';
import { commentsApi } from './comments';
import { configApi } from './config';
import { feedsApi } from './feeds';
import { followsApi } from './follows';
import { gifsApi } from './gifs';
import { groupsApi } from './groups';
import { healthApi } from './health';
import { mediaApi } from './media';
import { notificationsApi } from './notifications';
import { postsApi } from './posts';
import { profilesApi } from './profiles';
import { searchApi } from './search';
import type { Endpoint } from './endpoint';

/**
 * Every call of the API by resource. The server registers each route from its entry, the web app
 * calls through the same entries, and the OpenAPI document is generated from the registered routes.
 */
export const api = {
  health: healthApi,
  config: configApi,
  auth: authApi,
  account: accountApi,
  profiles: profilesApi,
  follows: followsApi,
  search: searchApi,
  posts: postsApi,
  feeds: feedsApi,
  comments: commentsApi,
  media: mediaApi,
  groups: groupsApi,
  notifications: notificationsApi,
  gifs: gifsApi,
} as const;

/** Every entry of the contract, flattened. */
export const allEndpoints = (): Endpoint[] =>
  Object.values(api).flatMap((resource) => Object.values(resource as Record<string, Endpoint>));
