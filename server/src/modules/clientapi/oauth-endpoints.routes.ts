import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Endpoint } from '#core/api/endpoint';
import { OAuthError, type RevokeRequest, type TokenRequest, oauthEndpointsApi } from '#core/api/oauth';
import { contextOf } from '../../lib/service-context.js';
import { acceptForms, reshapeRefusals, untypedRoute } from './client-errors.js';
import { allowCrossOrigin } from './cross-origin.js';
import { OAUTH_CODES, issueToken, revokeByApp, serverMetadata } from './oauth-token.service.js';

/** Every refusal of these endpoints in the protocol's shape. */
const OAUTH_ERRORS = { 400: OAuthError, 401: OAuthError, 429: OAuthError } as const;

const oauthRoute = (e: Endpoint) => untypedRoute(e, OAUTH_ERRORS);

/**
 * Refusals as OAuth clients read them: `error` the protocol's code (`invalid_grant`...), which apps
 * act on, `error_description` the English sentence, and `message` the catalogue key as everywhere.
 */
function answerOAuthErrors(app: FastifyInstance): void {
  reshapeRefusals(app, ({ message, key, sentence }) => ({
    error: OAUTH_CODES[key as keyof typeof OAUTH_CODES] ?? 'invalid_request',
    error_description: sentence,
    message,
  }));
}

/**
 * The endpoints apps call at the root: the token endpoint, revocation and the server's metadata.
 * The consent screen itself (`GET /oauth/authorize`) is a screen of the web app.
 */
export const oauthEndpointRoutes: FastifyPluginAsync = async (app) => {
  acceptForms(app);
  answerOAuthErrors(app);
  allowCrossOrigin(app, [oauthEndpointsApi.token.path, oauthEndpointsApi.revoke.path, oauthEndpointsApi.metadata.path], { methods: 'GET, POST, OPTIONS' });
  const callOf = (request: { headers: { authorization?: string | undefined }; ip: string }) => ({ authorization: request.headers.authorization, ip: request.ip });

  app.route({
    ...oauthRoute(oauthEndpointsApi.token),
    handler: async (request, reply) => {
      // A token must not be kept by any cache on the way.
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return issueToken(contextOf(app), request.body as TokenRequest, callOf(request));
    },
  });
  app.route({
    ...oauthRoute(oauthEndpointsApi.revoke),
    handler: async (request) => revokeByApp(contextOf(app), request.body as RevokeRequest, callOf(request)),
  });
  app.route({
    ...oauthRoute(oauthEndpointsApi.metadata),
    handler: async () => serverMetadata(app.config.publicUrl),
  });
};
