import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerErrorKey } from '#core/errors';
import { AppError } from '../lib/app-error.js';
import { isDatabaseBusy } from '../lib/database-busy.js';
import { noStoreOnApi, someScalar } from './security.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Refusals a route answered with a key its contract entry does not list (`METHOD path: key`).
     * Logged as they happen; the test apps fail on any, so the contract's error lists stay true.
     */
    undeclaredErrors: string[];
  }
  interface FastifyContextConfig {
    /** Catalogue key answered when this route's JSON schema rejects the request. */
    invalidKey?: ServerErrorKey;
  }
}

/**
 * Schema failures answer the catalogue key of the field that failed, so a client always gets an
 * `error/...` it can translate. Fields without an entry fall back to the route's invalidKey.
 */
const FIELD_KEYS: Record<string, ServerErrorKey> = {
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

/**
 * A malformed id in the path answers the key of its kind, named by the route's parameter:
 * invalid_group_id, invalid_post, invalid_comment and invalid_id (a user). The 404 of a well-formed id that names nothing is the
 * service's (didnt_find_group, didnt_find_post, comment_not_found, user_not_found...).
 */
const PARAM_KEYS: Record<string, ServerErrorKey> = {
  groupId: 'invalid_group_id',
  postId: 'invalid_post',
  commentId: 'invalid_comment',
  userId: 'invalid_id',
  pfp: 'invalid_id',
  name: 'no_group_name',
  username: 'user_not_found',
};

function keyForValidation(error: FastifyError, routeKey: ServerErrorKey | undefined): ServerErrorKey {
  const first = error.validation?.[0];
  const path = first?.instancePath ?? '';
  const field = (first?.params as { missingProperty?: string } | undefined)?.missingProperty ?? path.split('/')[1] ?? '';
  if (error.validationContext === 'params') return PARAM_KEYS[field] ?? routeKey ?? 'invalid_id';
  // A list read with a page, limit, sort or time it does not take.
  if (error.validationContext === 'querystring') return FIELD_KEYS[field] ?? routeKey ?? 'invalid_query';
  return FIELD_KEYS[field] ?? routeKey ?? 'invalid_id';
}

const nonFinite = (scalar: string | number): boolean => typeof scalar === 'number' && !Number.isFinite(scalar);

/**
 * The schema validator reads "Infinity" and "1e400" in a query (and JSON.parse reads 1e400 in a
 * body) as Infinity, which then passes its integer and maximum checks. Such a value is refused here
 * after validation, as the schema failure of its field, so it never reaches paging or SQL.
 */
function refuseNonFinite(request: FastifyRequest): void {
  for (const [context, value] of [['querystring', request.query], ['body', request.body]] as const) {
    if (value === null || typeof value !== 'object') continue;
    const field = Object.entries(value).find(([, child]) => someScalar(child, nonFinite))?.[0];
    if (field === undefined) continue;
    throw Object.assign(new Error(`${field} is not a finite number`), {
      statusCode: 400,
      validationContext: context,
      validation: [{ keyword: 'type', instancePath: `/${field}`, schemaPath: '', params: {}, message: 'must be finite' }],
    });
  }
}

/**
 * Refusals any call may answer, so no contract entry lists them: no session or a stale one, a NUL
 * byte, an address too long.
 */
const ANY_CALL_ERRORS: readonly ServerErrorKey[] = ['no_token', 'invalid_token', 'invalid_characters', 'uri_too_long'];

/** When a client is told to try again after the database was busy: a moment, not a backoff. */
export const BUSY_RETRY_SECONDS = 2;

/** The one place errors become `{message: "error/<key>"}`; 5xx details never leave the server. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('undeclaredErrors', [] as string[]);
    app.addHook('preHandler', async (request) => refuseNonFinite(request));
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        const endpoint = request.routeOptions.config.endpoint;
        if (endpoint && !endpoint.errors.includes(error.key) && !ANY_CALL_ERRORS.includes(error.key)) {
          const entry = `${endpoint.method} ${endpoint.path}: ${error.key}`;
          request.log.warn({ entry }, 'error key missing from the contract');
          app.undeclaredErrors.push(entry);
        }
        return reply.status(error.statusCode).send({ message: `error/${error.key}` });
      }
      if (error.validation) {
        const key = keyForValidation(error, request.routeOptions.config.invalidKey);
        return reply.status(400).send({ message: `error/${key}` });
      }
      const status = error.statusCode ?? 500;
      if (status === 413) return reply.status(413).send({ message: 'error/request_too_large' });
      if (status >= 400 && status < 500) {
        request.log.info({ err: error }, 'client error');
        return reply.status(status).send({ message: `error/${request.routeOptions.config.invalidKey ?? 'server_error'}` });
      }
      if (isDatabaseBusy(error)) {
        request.log.warn({ err: error }, 'database busy');
        return reply.status(503).header('Retry-After', String(BUSY_RETRY_SECONDS)).send({ message: 'error/server_busy' });
      }
      request.log.error({ err: error }, 'unexpected error');
      return reply.status(500).send({ message: 'error/server_error' });
    });
    app.setNotFoundHandler((_request, reply) => {
      reply.status(404).send({ message: 'error/not_found' });
    });
  },
  { name: 'errors' },
);

/**
 * Errors the router raises before any route or hook runs: a path segment longer than the router
 * takes (414) or one that does not decode (400). They get a catalogue key like every other answer.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  noStoreOnApi(request, reply);
  const status = error.statusCode ?? 500;
  const key: ServerErrorKey = status === 414 ? 'uri_too_long' : status === 400 ? 'invalid_characters' : 'server_error';
  void reply.status(status).send({ message: `error/${key}` });
}
