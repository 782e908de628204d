import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './modules/health/health.routes.js';
import { configRoutes } from './modules/config/config.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { registrationRoutes } from './modules/auth/registration.routes.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { profileRoutes } from './modules/profiles/profiles.routes.js';
import { followRoutes } from './modules/follows/follows.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { suggestionRoutes } from './modules/suggestions/suggestions.routes.js';
import { postRoutes } from './modules/posts/posts.routes.js';
import { feedRoutes } from './modules/feeds/feeds.routes.js';
import { commentRoutes } from './modules/comments/comments.routes.js';
import { uploadRoutes } from './modules/media/media.routes.js';
import { groupRoutes } from './modules/groups/groups.routes.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { gifRoutes } from './modules/gifs/gifs.routes.js';
import { pushRoutes } from './modules/notifications/push/push.routes.js';
import { passkeyRoutes } from './modules/passkeys/passkeys.routes.js';
import { reportRoutes } from './modules/reports/reports.routes.js';
import { blockRoutes } from './modules/blocks/blocks.routes.js';
import { domainBlockRoutes } from './modules/federation/domain-blocks.routes.js';
import { instanceRoutes } from './modules/instance/instance.routes.js';
import { peopleRoutes } from './modules/people/people.routes.js';
import { clientApiWith } from './modules/clientapi/clientapi.routes.js';
import { clientNotificationRoutes } from './modules/notifications/client-notifications.routes.js';
import { clientPushRoutes } from './modules/notifications/push/client-push.routes.js';
import { clientStreamingRoutes } from './modules/notifications/client-streaming.routes.js';
import { oauthRoutes } from './modules/clientapi/oauth.routes.js';

/** Every feature's routes, mounted under /api in this order. */
export const API_ROUTES: FastifyPluginAsync[] = [
  healthRoutes,
  configRoutes,
  authRoutes,
  registrationRoutes,
  accountRoutes,
  profileRoutes,
  followRoutes,
  searchRoutes,
  suggestionRoutes,
  postRoutes,
  feedRoutes,
  commentRoutes,
  uploadRoutes,
  groupRoutes,
  notificationRoutes,
  gifRoutes,
  pushRoutes,
  passkeyRoutes,
  reportRoutes,
  blockRoutes,
  domainBlockRoutes,
  instanceRoutes,
  peopleRoutes,
  clientApiWith(clientNotificationRoutes, clientPushRoutes, clientStreamingRoutes),
  oauthRoutes,
];
