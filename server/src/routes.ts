import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './modules/health/health.routes';
import { configRoutes } from './modules/config/config.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { accountRoutes } from './modules/account/account.routes';
import { profileRoutes } from './modules/profiles/profiles.routes';
import { followRoutes } from './modules/follows/follows.routes';
import { searchRoutes } from './modules/search/search.routes';
import { postRoutes } from './modules/posts/posts.routes';
import { feedRoutes } from './modules/feeds/feeds.routes';
import { commentRoutes } from './modules/comments/comments.routes';
import { uploadRoutes } from './modules/media/media.routes';
import { groupRoutes } from './modules/groups/groups.routes';
import { notificationRoutes } from './modules/notifications/notifications.routes';
import { gifRoutes } from './modules/gifs/gifs.routes';

/** Every feature's routes, mounted under /api in this order. */
export const API_ROUTES: FastifyPluginAsync[] = [
  healthRoutes,
  configRoutes,
  authRoutes,
  accountRoutes,
  profileRoutes,
  followRoutes,
  searchRoutes,
  postRoutes,
  feedRoutes,
  commentRoutes,
  uploadRoutes,
  groupRoutes,
  notificationRoutes,
  gifRoutes,
];
