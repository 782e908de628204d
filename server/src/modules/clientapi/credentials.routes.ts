import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type CredentialAccount, clientAccountApi } from '#core/api/client-account';
import { ClientError } from '#core/api/client';
import { type ServiceContext, contextOf } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { readUpload, registerUploads } from '../media/uploads.js';
import { getProfile } from '../profiles/profiles.service.js';
import { credentialAccount } from './account.mapper.js';
import { type CredentialChanges, credentialChangesOf, updateCredentials } from './account-update.service.js';
import { requireScope } from './client-caller.js';
import { untypedRoute } from './client-errors.js';
import { originOf } from './accounts.service.js';
import { postCountOf } from './clientapi.repository.js';

/** The adapter's refusals of these calls, in its own shape. */
const REFUSALS = { 401: ClientError, 403: ClientError, 413: ClientError, 422: ClientError } as const;

/** The most fields a profile form of an app holds (names, switches, four profile fields, posting defaults), and its two pictures. */
const PROFILE_FORM = { file: 'avatar', files: 2, fields: 40 } as const;

/** The signed-in account with what its owner may edit. */
async function credentialsOf(ctx: ServiceContext, viewer: Viewer): Promise<CredentialAccount> {
  const [profile, statuses] = await Promise.all([getProfile(ctx, viewer, { username: viewer.username }), postCountOf(ctx.db, viewer.id)]);
  return credentialAccount(originOf(ctx), viewer, profile, statuses);
}

/** The changes a request asks for, from a multipart form (with its avatar) or a JSON or form body. */
async function changesOf(request: FastifyRequest): Promise<CredentialChanges> {
  if (!request.isMultipart()) return credentialChangesOf((request.body as Record<string, unknown> | undefined) ?? {});
  const upload = await readUpload(request, PROFILE_FORM);
  return credentialChangesOf(upload.fields, { avatar: upload.file, truncated: upload.truncated });
}

/**
 * The signed-in account: GET /api/v1/accounts/verify_credentials, the first call of an app after
 * signing in, and PATCH /api/v1/accounts/update_credentials, its profile form. Registered inside the
 * adapter's scope (its refusals' shape and forms), in a scope of its own for multipart forms.
 */
export const credentialsRoutes: FastifyPluginAsync = async (app) => {
  // The adapter's scope may read multipart forms already (media uploads); else this scope does.
  if (!app.hasContentTypeParser('multipart/form-data')) await registerUploads(app);
  app.route({
    ...untypedRoute(clientAccountApi.verifyCredentials, REFUSALS),
    handler: async (request) => credentialsOf(contextOf(app), await requireScope(request, 'profile')),
  });
  app.route({
    ...untypedRoute(clientAccountApi.updateCredentials, REFUSALS),
    handler: async (request) => {
      const viewer = await requireScope(request, 'write:accounts');
      const updated = await updateCredentials(app, viewer, await changesOf(request));
      return credentialsOf(contextOf(app), updated);
    },
  });
};
