import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './modules/health/health.routes';

/** Every feature's routes, mounted under /api in this order. */
export const API_ROUTES: FastifyPluginAsync[] = [
  healthRoutes,
];
