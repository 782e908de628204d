import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/schema';
import { outboxName } from '../../src/lib/mailer';
import { hashPassword } from '../../src/lib/passwords';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { type TestUser, createUser } from '../helpers/fixtures';
import type { TestApp } from '../helpers/test-app';

/** Helpers of the accounts tests: the mail outbox, row counts, distinct client addresses. */

export interface SentMail {
  to: string;
  subject: string;
  text: string;
  link: string | undefined;
}

function outboxFiles(dataDir: string, to: string): string[] {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  const suffix = `-${outboxName(to)}.eml`;
  return readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => join(dir, name));
}

/** Sends what the job queue holds (tests run no worker), so the outbox shows every mail asked for. */
export async function sendQueuedMail(app: FastifyInstance): Promise<void> {
  await runDueJobs(app);
}

export async function mailCount(t: TestApp, to: string): Promise<number> {
  await sendQueuedMail(t.app);
  return outboxFiles(t.config.dataDir, to).length;
}

export async function lastMail(t: TestApp, to: string): Promise<SentMail> {
  await sendQueuedMail(t.app);
  return readMail(t.config.dataDir, to);
}

/** The newest mail to `to` already in the outbox folder `dataDir/outbox`. */
export function readMail(dataDir: string, to: string): SentMail {
  const files = outboxFiles(dataDir, to);
  const file = files[files.length - 1];
  if (!file) throw new Error(`no mail to ${to}`);
  const content = readFileSync(file, 'utf8');
  const [head = '', ...body] = content.split('\n\n');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(head)?.[1] ?? '';
  const text = body.join('\n\n');
  return { to: header('To'), subject: header('Subject'), text, link: /https?:\/\/\S+/.exec(text)?.[0] };
}

/** Moves the recorded rate events whose key starts with `prefix` back by `ms`, as if that time had passed. */
export async function ageRateEvents(app: FastifyInstance, prefix: string, ms: number): Promise<void> {
  await app.db
    .updateTable('rate_events')
    .set((eb) => ({ created_at: eb('created_at', '-', ms) }))
    .where('key', 'like', `${prefix}%`)
    .execute();
}

/** `{publicUrl}/{route}?token=..&email=..` -> its parts. */
export function parseLink(link: string | undefined): { route: string; token: string; email: string } {
  if (!link) throw new Error('mail without a link');
  const url = new URL(link);
  return { route: url.pathname, token: url.searchParams.get('token') ?? '', email: url.searchParams.get('email') ?? '' };
}

export async function countRows(app: FastifyInstance, table: keyof Database): Promise<number> {
  const row = await app.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

let lastAddress = 0;
/** A client address no other test uses, so per-address lockouts stay apart. */
export function freshAddress(): string {
  lastAddress++;
  return `10.${(lastAddress >> 16) & 255}.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
}

/** A verified account with a known password, made straight in the database. */
export async function createPasswordUser(
  app: FastifyInstance,
  password = 'secret12',
  overrides: Parameters<typeof createUser>[1] = {},
): Promise<TestUser & { password: string }> {
  const user = await createUser(app, { ...overrides, passwordHash: await hashPassword(password) });
  return { ...user, password };
}

/** A sign-up from an address no other test uses, so the per-address sign-up limit stays apart. */
export function signup(app: FastifyInstance, payload: Record<string, unknown>, remoteAddress = freshAddress()) {
  return app.inject({ method: 'POST', url: '/api/auth/signup', payload, remoteAddress });
}

/** A login from `remoteAddress` (a fresh one unless given), with extra headers such as X-Forwarded-For. */
export function login(app: FastifyInstance, username: string, password: string, remoteAddress = freshAddress(), headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress, headers });
}

export { expectError, expectInfo, expectSignedUp } from '../helpers/expect';
