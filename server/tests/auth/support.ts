import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/schema';
import { outboxName } from '../../src/lib/mailer';
import { hashPassword } from '../../src/lib/passwords';
import { type TestUser, createUser } from '../helpers/fixtures';

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

export function mailCount(dataDir: string, to: string): number {
  return outboxFiles(dataDir, to).length;
}

export function lastMail(dataDir: string, to: string): SentMail {
  const files = outboxFiles(dataDir, to);
  const file = files[files.length - 1];
  if (!file) throw new Error(`no mail to ${to}`);
  const content = readFileSync(file, 'utf8');
  const [head = '', ...body] = content.split('\n\n');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(head)?.[1] ?? '';
  const text = body.join('\n\n');
  return { to: header('To'), subject: header('Subject'), text, link: /https?:\/\/\S+/.exec(text)?.[0] };
}

/** `{publicUrl}/#/{route}?token=..&email=..` -> its parts. */
export function parseLink(link: string | undefined): { route: string; token: string; email: string } {
  if (!link) throw new Error('mail without a link');
  const hash = new URL(link).hash; // #/verify?token=...
  const [path = '', query = ''] = hash.slice(1).split('?');
  const params = new URLSearchParams(query);
  return { route: path, token: params.get('token') ?? '', email: params.get('email') ?? '' };
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

export function login(app: FastifyInstance, username: string, password: string, remoteAddress = freshAddress()) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });
}

export { expectError } from '../helpers/expect';
