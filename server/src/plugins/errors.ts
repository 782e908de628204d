import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorKey } from '#core/errors';
import { AppError } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Catalogue key answered when this route's JSON schema rejects the request. */
    invalidKey?: ErrorKey;
  }
}

/**
 * Schema failures answer the catalogue key of the field that failed, so a client always gets an
 * `error/...` it can translate. Fields without an entry fall back to the route's invalidKey.
 */
const FIELD_KEYS: Record<string, ErrorKey> = {
  username: 'new_username',
  newUsername: 'new_username',
  password: 'new_password',
  newPassword: 'new_password',
  oldPassword: 'invalid_credentials',
  email: 'invalid_email',
  token: 'invalid_link',
  following: 'invalid_following_id',
  name: 'new_groupname',
  description: 'max_desc_length',
  bio: 'max_bio_length',
  parent: 'invalid_parent',
  replyingTo: 'invalid_post',
  mentions: 'mentions_up_to',
  groups: 'groups_up_to',
};

function keyForValidation(error: FastifyError, routeKey: ErrorKey | undefined): ErrorKey {
  const first = error.validation?.[0];
  const path = first?.instancePath ?? '';
  const field = (first?.params as { missingProperty?: string } | undefined)?.missingProperty ?? path.split('/')[1] ?? '';
  if (error.validationContext === 'params') return routeKey ?? 'invalid_id';
  return FIELD_KEYS[field] ?? routeKey ?? 'invalid_id';
}

/** The one place errors become `{message: "error/<key>"}`; 5xx details never leave the server. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        return reply.status(error.statusCode).send({ message: `error/${error.key}` });
      }
      if (error.validation) {
        const key = keyForValidation(error, request.routeOptions.config.invalidKey);
        return reply.status(400).send({ message: `error/${key}` });
      }
      const status = error.statusCode ?? 500;
      if (status === 413) return reply.status(413).send({ message: 'error/server_error' });
      if (status >= 400 && status < 500) {
        request.log.info({ err: error }, 'client error');
        return reply.status(status).send({ message: `error/${request.routeOptions.config.invalidKey ?? 'server_error'}` });
      }
      request.log.error({ err: error }, 'unexpected error');
      return reply.status(500).send({ message: 'error/server_error' });
    });
    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send({ message: 'error/server_error' });
    });
  },
  { name: 'errors' },
);
