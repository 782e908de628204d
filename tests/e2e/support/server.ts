import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { CreatePostBody, Post } from '#core/api/posts';
import { buildApp } from '../../../server/src/app';
import { loadConfig } from '../../../server/src/config';
import { openDatabase } from '../../../server/src/db/database';
import { createTestDatabase, dropTestDatabase } from '../../../server/tests/helpers/pg-test-database';

/**
 * Which database the browser tests run on: SQLite in the data folder, or (the e2e-postgres project)
 * a fresh database on TEST_DATABASE_URL per server.
 */
export const E2E_DB = process.env.KRUH_E2E_DB === 'postgres' ? 'postgres' : 'sqlite';

/**
 * The built web app the server hands out (`npm run build`); `KRUH_E2E_DIST` names another build
 * folder, so a run can test one build while `dist/` is being rebuilt.
 */
export const DIST = resolve(process.env.KRUH_E2E_DIST ?? 'dist');

export interface TestServer {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>`: the origin the browser opens. */
  baseUrl: string;
  /** Fresh data folder: SQLite file, media, and `outbox/` with every email sent. */
  dataDir: string;
  /**
   * Every request the server received, in order: counts what reached it from the page and from
   * the service worker alike (a sync may send an outbox entry from either).
   */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export interface ReceivedRequest {
  method: string;
  /** The path without its query. */
  path: string;
}

/** Fails early, with the fix, when there is no built app to serve. */
export function requireBuiltApp(): void {
  if (!existsSync(join(DIST, 'index.html')) || !existsSync(join(DIST, 'sw.js'))) {
    throw new Error(`No built app in ${DIST}: run \`npm run build\` before the e2e tests.`);
  }
}

export interface ServerOptions {
  /** Run the job worker, which sends the mail and delivers notifications (default on). */
  worker?: boolean;
  /** Serve the web app from this folder instead of the build (a copy a test may change). */
  webDir?: string;
  /** More settings, as the environment gives them (`TENOR_KEY` shows the GIF picker). */
  env?: Record<string, string>;
}

/**
 * The real server, in this process, serving the built app and the API on a free port of
 * 127.0.0.1, with its own temporary data folder (SQLite, mails written as files by the job worker).
 */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  requireBuiltApp();
  const dataDir = mkdtempSync(join(tmpdir(), 'kruh-e2e-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIR: options.webDir ?? DIST,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    RUN_WORKER: options.worker === false ? 'false' : 'true',
    PORT: '0',
    // Every test user signs up from 127.0.0.1, and a retried test signs up its people again; the
    // limit itself is tested against the API.
    RATE_SIGNUPS_PER_ADDRESS_PER_HOUR: '1000',
    ...options.env,
  });
  const pg = E2E_DB === 'postgres' ? await freshDatabase(dataDir) : undefined;
  const database = pg?.database ?? openDatabase({ dataDir });
  if (pg) config.databaseUrl = pg.url;
  const app = await buildApp({ config, database, logger: false });
  const requests: ReceivedRequest[] = [];
  app.addHook('onRequest', async (request) => {
    requests.push({ method: request.method, path: request.url.split('?')[0] ?? request.url });
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    await app.close();
    throw err;
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not report a port');
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    dataDir,
    requests,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (pg) await dropTestDatabase(process.env.TEST_DATABASE_URL ?? '', pg.url);
    },
  };
}

/** A new database on the test PostgreSQL, copied from the run's migrated template. */
async function freshDatabase(dataDir: string) {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is required for the e2e-postgres project');
  const url = await createTestDatabase(base);
  return { url, database: openDatabase({ url, dataDir, poolSize: 4 }) };
}

export interface ApiReply<T = unknown> {
  status: number;
  body: T;
}

/** One API call straight into the server (no browser), as `token`'s user when given. */
export async function api<T = unknown>(
  server: TestServer,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiReply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await server.app.inject({
    method,
    url: `/api${path}`,
    headers,
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
  const text = response.body;
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.statusCode, body: body as T };
}

export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** Every email the server has written for `to`, oldest first. */
export function mailsTo(server: TestServer, to: string): Mail[] {
  const dir = join(server.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(dir, file), 'utf8');
      const split = raw.indexOf('\n\n');
      const head = raw.slice(0, split);
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
      return { file, to: header('To'), subject: header('Subject'), text: raw.slice(split + 2) };
    })
    .filter((mail) => mail.to.toLowerCase() === to.toLowerCase());
}

/**
 * The newest link to `route` (verify, reset) mailed to `email`, as a path on the test server: the
 * server builds links from PUBLIC_URL, which here is not the address the browser uses, so only the
 * part from the path on is kept (`/verify?token=...&email=...`). Waits a little for the file.
 */
export async function mailedLink(server: TestServer, email: string, route: 'verify' | 'reset', timeoutMs = 5_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  const pattern = new RegExp(`https?://[^/\\s]+/${route}\\?\\S+`);
  for (;;) {
    for (const mail of mailsTo(server, email).reverse()) {
      const link = pattern.exec(mail.text)?.[0];
      if (link) {
        const url = new URL(link);
        return `${url.pathname}${url.search}${url.hash}`;
      }
    }
    if (Date.now() > until) throw new Error(`no ${route} email for ${email} in ${join(server.dataDir, 'outbox')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The newest verification link mailed to `email` (see mailedLink). */
export function verificationLink(server: TestServer, email: string, timeoutMs = 5_000): Promise<string> {
  return mailedLink(server, email, 'verify', timeoutMs);
}

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
}

let counter = 0;

/** A name unique within the run; digits only after the prefix, so no accidental word trips the profanity rule. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now() % 100_000_000}${counter}`;
}

/** A verified, logged-in user made the way a person would: sign-up, the mailed link, login. */
export async function createVerifiedUser(
  server: TestServer,
  options: { username?: string; password?: string; language?: 'en' | 'cs' } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName('user');
  const email = `${username.toLowerCase()}@example.com`;
  const password = options.password ?? 'Str0ng!pass';
  const signup = await api(server, 'POST', '/auth/signup', {
    // Accepting the instance's rules, as the form asks while there are some (ignored while there are none).
    body: { username, email, password, language: options.language ?? 'en', acceptRules: true },
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status}: ${JSON.stringify(signup.body)}`);
  const link = new URL(await verificationLink(server, email), server.baseUrl);
  const query = link.searchParams;
  const verify = await api(server, 'GET', `/auth/verify?${query.toString()}`);
  if (verify.status !== 200) throw new Error(`verify ${verify.status}: ${JSON.stringify(verify.body)}`);
  const login = await api<{ token: string; user: { _id: string; username: string } }>(server, 'POST', '/auth/login', {
    body: { username, password },
  });
  if (login.status !== 200) throw new Error(`login ${login.status}: ${JSON.stringify(login.body)}`);
  return { id: login.body.user._id, username: login.body.user.username, email, password, token: login.body.token };
}

/** A post written through the API as `user`, as the server returns it. */
export async function createPost(server: TestServer, user: TestUser, body: CreatePostBody): Promise<Post> {
  const reply = await api<Post>(server, 'POST', '/post', { token: user.token, body });
  if (reply.status !== 201) throw new Error(`post ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** What the app keeps in localStorage for a logged-in user (the session). */
export function sessionStorageState(server: TestServer, user: TestUser) {
  return {
    cookies: [],
    origins: [
      {
        origin: server.baseUrl,
        localStorage: [
          { name: 'token', value: user.token },
          { name: 'username', value: user.username },
          { name: 'id', value: user.id },
        ],
      },
    ],
  };
}
