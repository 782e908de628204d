import type { FastifyPluginAsync } from 'fastify';
import { clientAccountApi } from '#core/api/client-account';
import { contextOf } from '../../lib/service-context.js';
import { getProfile } from '../profiles/profiles.service.js';
import { credentialAccount } from './account.mapper.js';
import { requireScope } from './client-caller.js';
import { untypedRoute } from './client-errors.js';
import { postCountOf } from './clientapi.repository.js';
import { ClientError } from '#core/api/client';

/** The adapter's refusals of this call, in its own shape. */
const REFUSALS = { 401: ClientError, 403: ClientError } as const;

/**
 * GET /api/v1/accounts/verify_credentials: the account an app's token acts for, the first call of an
 * app after signing in. Registered inside the adapter's scope (its refusals' shape).
 */
export const verifyCredentialsRoutes: FastifyPluginAsync = async (app) => {
  app.route({
    ...untypedRoute(clientAccountApi.verifyCredentials, REFUSALS),
    handler: async (request) => {
      const viewer = await requireScope(request, 'profile');
      const ctx = contextOf(app);
      const [profile, statuses] = await Promise.all([getProfile(ctx, viewer, { username: viewer.username }), postCountOf(ctx.db, viewer.id)]);
      return credentialAccount(app.config.publicUrl.replace(/\/$/u, ''), viewer, profile, statuses);
    },
  });
};
