import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { LoadedConfig } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { inlineScriptSources } from './lib/inline-scripts.js';
import { requestLogSerializer } from './lib/log.js';
import { OneLinePerRequest } from './lib/request-log.js';
import type { Resolver } from './lib/egress/egress.js';
import { REQUEST_ID_HEADER, requestIdGenerator } from './lib/request-id.js';
import type { MediaStorage } from './lib/storage.js';
import { migrateToLatest } from './db/migrator.js';
import { processWideCompilers } from './lib/schema-compilers.js';
import { authPlugin } from './plugins/auth.js';
import { compressionPlugin } from './plugins/compression.js';
import { databasePlugin } from './plugins/database.js';
import { egressPlugin } from './plugins/egress.js';
import { errorsPlugin, frameworkErrors } from './plugins/errors.js';
import { mailerPlugin } from './plugins/mailer.js';
import { openApiPlugin } from './plugins/openapi.js';
import { syndicationRoutes } from './modules/syndication/syndication.routes.js';
import { appShellRoutes } from './modules/syndication/app-shell.js';
import { securityPlugin } from './plugins/security.js';
import { shareTargetRoutes } from './plugins/share-target.js';
import { storagePlugin } from './plugins/storage.js';
import { visitorCachePlugin } from './plugins/visitor-cache.js';
import { API_ROUTES } from './routes.js';
import { jobsPlugin } from './lib/jobs/jobs.plugin.js';
import { jobsOptions } from './jobs.js';
import { EVENT_SUBSCRIBERS } from './events.js';
import type { EventSubscribers } from './lib/events/domain-events.js';
import { notificationHubPlugin } from './modules/notifications/live.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { oauthEndpointRoutes } from './modules/clientapi/oauth-endpoints.routes.js';
import { pushPlugin } from './modules/notifications/push/push.plugin.js';
import { findAccount } from './modules/auth/auth.service.js';
import { withJwtSecret } from './modules/auth/session-secret.js';
import { metricsPlugin } from './modules/metrics/metrics.plugin.js';
import { federationPlugin } from './modules/federation/federation.plugin.js';
import { type MakeKeyPair, generateKeyPair } from './modules/remote/actor-keys.js';

export interface BuildOptions {
  /** As loadConfig read it; on PostgreSQL without JWT_SECRET the secret is read from the database. */
  config: LoadedConfig;
  database: DatabaseHandle;
  /** Close the database with the app (default true). */
  closeDatabase?: boolean;
  logger?: boolean;
  /** Where the log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Media storage; the local folder in the data dir by default. */
  storage?: MediaStorage;
  /** The resolver outgoing requests use; the system's by default (tests answer for made-up names). */
  resolve?: Resolver;
  /** Sees every route as it is added: tests walk the whole route table with it. */
  onRoute?: (route: RouteOptions) => void;
  /** Who reacts to each domain event; events.ts's by default (tests listen in or leave reactions out). */
  events?: EventSubscribers;
  /** How an actor's missing key pair is made; Fedify's generator by default (tests hand out pairs made beforehand). */
  makeKeyPair?: MakeKeyPair;
}

/**
 * Builds the whole server without listening: external plugins, then app services, then routes.
 * Tests call this with a fresh database and use app.inject.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  await migrateToLatest(options.database.db);
  const config = await withJwtSecret(options.config, options.database.db);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, serializers: { req: requestLogSerializer }, ...(options.logStream ? { stream: options.logStream } : {}) },
    logController: new OneLinePerRequest(),
    bodyLimit: 64 * 1024,
    trustProxy: config.trustProxy,
    genReqId: requestIdGenerator(config.trustProxy),
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true } },
    schemaController: { compilersFactory: processWideCompilers },
    // A path segment over the router's length limit or not decodable answers a catalogue key too.
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Told back on every answer, refusals included, so a user's report can name the log lines.
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  // Body-less calls (POST /auth/test, /account/get) may still say application/json; read an
  // empty body as no body instead of refusing it.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const error = Object.assign(new Error('invalid JSON body'), { statusCode: 400 });
      done(error, undefined);
    }
  });

  await app.register(errorsPlugin);
  app.decorate('eventSubscribers', options.events ?? EVENT_SUBSCRIBERS);
  app.decorate('makeKeyPair', options.makeKeyPair ?? generateKeyPair);
  const page = config.webDir ? join(config.webDir, 'index.html') : null;
  const inlineScripts = page && existsSync(page) ? inlineScriptSources(readFileSync(page, 'utf8')) : [];
  await app.register(securityPlugin, { mediaUrl: config.mediaUrl, inlineScripts });
  await app.register(databasePlugin, {
    config,
    database: options.database,
    closeDatabase: options.closeDatabase ?? true,
  });
  await app.register(authPlugin, { findAccount });
  // After the security headers and before the routes: a kept answer leaves with the same headers.
  await app.register(visitorCachePlugin);
  // After the visitor cache, which keeps the plain text; before the routes, which must see its hook.
  await app.register(compressionPlugin);
  await app.register(storagePlugin, options.storage ? { storage: options.storage } : {});
  await app.register(notificationHubPlugin);
  await app.register(egressPlugin, options.resolve ? { resolve: options.resolve } : {});
  await app.register(jobsPlugin, jobsOptions(config));
  await app.register(mailerPlugin);
  await app.register(pushPlugin);
  // Before the routes, so its timing hook sees every one of them.
  await app.register(metricsPlugin, { pool: options.database.pool });

  await app.register(
    async (api) => {
      // First, so the document sees every route registered after it.
      await api.register(openApiPlugin);
      for (const routes of API_ROUTES) await api.register(routes);
    },
    { prefix: '/api' },
  );
  // Stored images: the route takes its full path (/media/*) from its contract entry.
  await app.register(mediaRoutes);
  // Feeds to follow, robots.txt and the sitemap: what the world outside the app reads.
  await app.register(syndicationRoutes);
  // Where fediverse apps sign in: the token endpoint, revocation and the server's metadata.
  await app.register(oauthEndpointRoutes);
  // WebFinger, NodeInfo and the ActivityPub actors, only on an instance that federates.
  if (config.federation) await app.register(federationPlugin);

  if (config.webDir && existsSync(config.webDir)) {
    await app.register(fastifyStatic, {
      root: config.webDir,
      prefix: '/',
      wildcard: false,
      // `/` is the page with the first feed in it (app-shell); `/index.html` stays the plain file.
      index: false,
      // The build writes brotli and gzip copies of its text files; they go to browsers that accept them.
      preCompressed: true,
      // The service worker and the shell must be revalidated; hashed assets can be cached forever.
      setHeaders(res, path) {
        if (/[\\/]assets[\\/]/.test(path)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
        else res.header('Cache-Control', 'no-cache');
      },
    });
    await app.register(appShellRoutes, { webDir: config.webDir });
    await app.register(shareTargetRoutes);
  }

  return app;
}
