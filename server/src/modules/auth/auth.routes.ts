import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Language } from '#core/api/account';
import { authApi } from '#core/api/auth';
import { routeOf } from '../../lib/contract.js';
import { message, viewerRoute } from '../../lib/handlers.js';
import * as passkeys from '../passkeys/passkeys.service.js';
import { toSessionUser } from './auth.mapper.js';
import * as service from './auth.service.js';

/** The account's language: the one asked for, else the browser's, else English. */
function languageOf(request: FastifyRequest, asked: string | undefined): Language {
  if (asked === 'cs' || asked === 'en') return asked;
  return /^cs\b/i.test(request.headers['accept-language'] ?? '') ? 'cs' : 'en';
}

/** Sign-up, verification, login (password, Google and passkey), the auth guard, and password reset. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...routeOf(authApi.signup),
    handler: async (request, reply) => {
      await service.signup(app, { ...request.body, language: languageOf(request, request.body.language) }, request.ip);
      return reply.status(201).send(message('signup_email'));
    },
  });

  app.route({
    ...routeOf(authApi.verify),
    handler: async (request) => {
      await service.verifyEmail(app, request.query.token, request.query.email);
      return message('email_verified');
    },
  });

  app.route({
    ...routeOf(authApi.login),
    handler: async (request) =>
      service.login(app, { username: request.body.username ?? '', password: request.body.password ?? '' }, request.ip),
  });

  app.route({
    ...routeOf(authApi.google),
    handler: async (request) => service.googleLogin(app, request.body.token ?? '', languageOf(request, request.body.language)),
  });

  app.route(viewerRoute(authApi.test, (_request, viewer) => ({ ok: true, user: toSessionUser(viewer.user) })));

  app.route({
    ...routeOf(authApi.forgot),
    handler: async (request) => {
      await service.forgotPassword(app, request.body.email);
      return message('password_reset_sent');
    },
  });

  app.route({
    ...routeOf(authApi.reset),
    handler: async (request) => {
      await service.resetPassword(app, request.body);
      return message('password_changed');
    },
  });

  // Signing in with a passkey: the passkeys service checks the browser's answer, then admits the
  // account as the password login does.
  app.route({
    ...routeOf(authApi.passkeyOptions),
    handler: async (request) => passkeys.loginOptions(app, passkeys.relyingPartyOf(app, request), request.ip),
  });

  app.route({
    ...routeOf(authApi.passkeyLogin),
    handler: async (request) => passkeys.login(app, request.body),
  });
};
