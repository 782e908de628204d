import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { infoMessage } from '#core/errors';
import { ErrorReplies, MessageReply } from '../../lib/schemas';
import { toSessionUser } from './auth.mapper';
import {
  AuthTestReply,
  ForgotBody,
  GoogleBody,
  LoginBody,
  ResetBody,
  SessionReply,
  SignupBody,
  VerifyQuery,
} from './auth.schemas';
import * as service from './auth.service';

/** The account's language: the one asked for, else the browser's, else English. */
function languageOf(request: FastifyRequest, asked: string | undefined): service.Language {
  if (asked === 'cs' || asked === 'en') return asked;
  return /^cs\b/i.test(request.headers['accept-language'] ?? '') ? 'cs' : 'en';
}

/** Sign-up, verification, login (password and Google), the auth guard, and password reset. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/auth/signup',
    { schema: { body: SignupBody, response: { 201: MessageReply, ...ErrorReplies } }, config: { invalidKey: 'new_username' } },
    async (request, reply) => {
      await service.signup(app, { ...request.body, language: languageOf(request, request.body.language) }, request.ip);
      return reply.status(201).send({ message: infoMessage('signup_email') });
    },
  );

  app.get(
    '/auth/verify',
    { schema: { querystring: VerifyQuery, response: { 200: MessageReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_link' } },
    async (request) => {
      await service.verifyEmail(app, request.query.token, request.query.email);
      return { message: infoMessage('email_verified') };
    },
  );

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: { 200: SessionReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_credentials' } },
    async (request) =>
      service.login(app, { username: request.body.username ?? '', password: request.body.password ?? '' }, request.ip),
  );

  app.post(
    '/auth/google',
    { schema: { body: GoogleBody, response: { 200: SessionReply, ...ErrorReplies } }, config: { invalidKey: 'google_failed' } },
    async (request) => service.googleLogin(app, request.body.token ?? '', languageOf(request, request.body.language)),
  );

  app.post('/auth/test', { schema: { response: { 200: AuthTestReply, ...ErrorReplies } } }, async (request) => {
    const viewer = await request.requireViewer();
    return { ok: true, user: toSessionUser(viewer.user) };
  });

  app.post(
    '/auth/forgot',
    { schema: { body: ForgotBody, response: { 200: MessageReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_email' } },
    async (request) => {
      await service.forgotPassword(app, request.body.email);
      return { message: infoMessage('password_reset_sent') };
    },
  );

  app.post(
    '/auth/reset',
    { schema: { body: ResetBody, response: { 200: MessageReply, ...ErrorReplies } }, config: { invalidKey: 'invalid_link' } },
    async (request) => {
      await service.resetPassword(app, request.body);
      return { message: infoMessage('password_changed') };
    },
  );
};
