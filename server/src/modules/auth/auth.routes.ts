import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Language } from '#core/api/account';
import { authApi } from '#core/api/auth';
import { routeOf } from '../../lib/contract.js';
import { message, viewerRoute } from '../../lib/handlers.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import { toSessionUser } from './auth.mapper.js';
import * as service from './auth.service.js';

/** The account's language: the one asked for, else the browser's, else English. */
function languageOf(request: FastifyRequest, asked: string | undefined): Language {
  if (asked === 'cs' || asked === 'en') return asked;
  return /^cs\b/i.test(request.headers['accept-language'] ?? '') ? 'cs' : 'en';
}

/** Sign-up, verification, login (password and Google), the auth guard, and password reset. Signing in with a passkey is served by the passkeys routes. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = contextOf(app);
  app.route({
    ...routeOf(authApi.signup),
    handler: async (request, reply) => {
      const { awaitsApproval, signupLogin } = await service.signup(ctx, { ...request.body, language: languageOf(request, request.body.language), ip: request.ip });
      return reply.status(201).send({ ...message(awaitsApproval ? 'signup_application' : 'signup_email'), signupLogin });
    },
  });

  app.route({
    ...routeOf(authApi.verify),
    handler: async (request) => {
      await inNewTransaction(app, (ctx) => service.verifyEmail(ctx, { token: request.query.token, email: request.query.email }));
      return message('email_verified');
    },
  });

  app.route({
    ...routeOf(authApi.signupLogin),
    handler: async (request) => service.signupLogin(ctx, request.body),
  });

  app.route({
    ...routeOf(authApi.login),
    handler: async (request) =>
      service.login(ctx, { username: request.body.username ?? '', password: request.body.password ?? '', ip: request.ip }),
  });

  app.route({
    ...routeOf(authApi.google),
    handler: async (request) => service.googleLogin(ctx, { token: request.body.token ?? '', language: languageOf(request, request.body.language), acceptRules: request.body.acceptRules }),
  });

  app.route(viewerRoute(authApi.test, (_request, viewer) => ({ ok: true, user: toSessionUser(viewer.user) })));

  app.route({
    ...routeOf(authApi.resendVerification),
    handler: async (request) => {
      await service.resendVerification(ctx, { email: request.body.email, username: request.body.username, ip: request.ip });
      return message('verification_sent');
    },
  });

  app.route({
    ...routeOf(authApi.forgot),
    handler: async (request) => {
      await inNewTransaction(app, (ctx) => service.forgotPassword(ctx, request.body.email));
      return message('password_reset_sent');
    },
  });

  app.route({
    ...routeOf(authApi.resetLink),
    handler: async (request) => {
      await service.checkResetLink(ctx, request.body);
      return message('reset_link_valid');
    },
  });

  app.route({
    ...routeOf(authApi.reset),
    handler: async (request) => {
      await service.resetPassword(ctx, request.body);
      return message('password_changed');
    },
  });
};
