import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseLink, readMail } from '../auth/support';
import { type FilePart, multipartBody } from '../helpers/multipart';
import { type TestS3, startS3 } from '../helpers/s3';
import { type ProcessDatabase, processDatabase } from '../helpers/pg-processes';
import type { ServerProcess } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';
import { type FakePushService, type TestDevice, decryptPush, newDevice, startPushService } from '../push/support';

/**
 * Several processes that agree: two real server processes on one PostgreSQL database and one S3
 * bucket, each with its own data folder, no JWT_SECRET (they share the one kept in the database) and
 * the job worker on A alone. A person's day is walked request by request, alternating processes, so
 * whatever one process keeps only in its own memory or folder shows up as a failure on the other.
 * PostgreSQL only: SQLite is one process on one machine.
 */

/** A signed-in account: its session token and what the API calls it by. */
interface Account {
  id: string;
  username: string;
  email: string;
  token: string;
}

interface Call {
  method?: string;
  as?: Account;
  json?: unknown;
  form?: ReturnType<typeof multipartBody>;
}

/** One process seen from outside: real HTTP on its port, as a browser or a load balancer reaches it. */
interface Server {
  name: string;
  dataDir: string;
  call(path: string, options?: Call): Promise<Response>;
}

function serverAt(name: string, started: ServerProcess, dataDir: string): Server {
  return {
    name,
    dataDir,
    call(path, { method = 'GET', as, json, form } = {}) {
      const headers: Record<string, string> = as ? { authorization: `Bearer ${as.token}` } : {};
      if (json !== undefined) headers['content-type'] = 'application/json';
      if (form) Object.assign(headers, form.headers);
      const body = form ? new Uint8Array(form.payload) : json === undefined ? undefined : JSON.stringify(json);
      return fetch(`${started.url}${path}`, { method, headers, body });
    },
  };
}

/** The answer's JSON once its status is the one expected; otherwise fails naming the process and the call. */
async function expectJson<T = Record<string, unknown>>(res: Promise<Response>, status: number, what: string): Promise<T> {
  const answer = await res;
  const text = await answer.text();
  expect(answer.status, `${what}: ${text}`).toBe(status);
  return (text ? JSON.parse(text) : {}) as T;
}

async function bytesOf(res: Promise<Response>): Promise<Buffer> {
  const answer = await res;
  expect(answer.status, answer.url).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
}

/** The `event: unread` counts a notification stream has sent so far, read as EventSource would. */
async function watchUnread(server: Server, account: Account): Promise<{ counts: number[]; close(): void }> {
  const stream = await server.call(`/api/notification/stream?token=${encodeURIComponent(account.token)}`);
  expect(stream.status).toBe(200);
  const counts: number[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of stream.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const match = /^event: unread\ndata: (.*)$/m.exec(buffer.slice(0, end));
          if (match) counts.push((JSON.parse(match[1]!) as { count: number }).count);
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return { counts, close: () => void stream.body?.cancel().catch(() => {}) };
}

const picture = async (field: string, background: string): Promise<FilePart> => ({
  field,
  filename: 'picture.png',
  contentType: 'image/png',
  data: await sharp({ create: { width: 32, height: 32, channels: 3, background } }).png().toBuffer(),
});

/** Digits only, so a random name never spells a word the profanity rule refuses. */
const digits = () => String(Date.now()).slice(-6) + String(Math.floor(Math.random() * 1000)).padStart(3, '0');

describe.skipIf(TEST_DB !== 'postgres')('two server processes on one PostgreSQL database and one bucket', () => {
  const folders: string[] = [];
  let database: ProcessDatabase | undefined;
  let s3: TestS3 | undefined;
  let push: FakePushService | undefined;
  let a: Server;
  let b: Server;

  beforeAll(async () => {
    database = await processDatabase('kruh_two');
    s3 = await startS3();
    push = await startPushService();
    const start = async (name: string, env: Record<string, string>): Promise<Server> => {
      const started = await database!.start(name, {
        PUBLIC_URL: 'http://kruh.test',
        PUSH_ALLOW_HTTP: 'true',
        // Far longer than any wait below: a visitor page that changes did so because a write forgot it.
        VISITOR_CACHE_MS: '600000',
        ...s3!.env,
        ...env,
      });
      folders.push(started.folder);
      return serverAt(name, started.server, started.dataDir);
    };
    // Started together: both migrate, and whichever comes first makes the session secret the other reads.
    [a, b] = await Promise.all([start('A', {}), start('B', { RUN_WORKER: 'false' })]);
  }, 180_000);

  afterAll(async () => {
    await database?.close();
    await push?.close();
    await s3?.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  const password = 'secret12';
  let amy: Account;
  let ben: Account;

  /** Signs up on one process and confirms the address with the link A's worker wrote to A's outbox. */
  async function signUp(on: Server, verifyOn: Server, prefix: string): Promise<Omit<Account, 'id' | 'token'>> {
    const username = `${prefix}${digits()}`;
    const email = `${username}@example.test`;
    await expectJson(on.call('/api/auth/signup', { method: 'POST', json: { username, email, password } }), 201, `sign up on ${on.name}`);
    // Only A runs the worker, so the mail asked for on either process is written by A.
    // Until its link is read: the file may be seen while it is still being written.
    const { token } = await vi.waitFor(() => parseLink(readMail(a.dataDir, email).link), { timeout: 20_000, interval: 20 });
    const query = new URLSearchParams({ token, email }).toString();
    await expectJson(verifyOn.call(`/api/auth/verify?${query}`), 200, `verify on ${verifyOn.name}`);
    return { username, email };
  }

  async function logIn(on: Server, account: Omit<Account, 'id' | 'token'>): Promise<Account> {
    const session = await expectJson<{ token: string; user: { _id: string } }>(
      on.call('/api/auth/login', { method: 'POST', json: { username: account.username, password } }),
      200,
      `log in on ${on.name}`,
    );
    return { ...account, id: session.user._id, token: session.token };
  }

  it('1. signs up on one process, verifies from the mail A sent, and a session from B holds on A', async () => {
    amy = await logIn(b, await signUp(a, b, 'amy'));
    // A token B signed is good on A: both sign with the secret kept in the database.
    await expectJson(a.call('/api/auth/test', { method: 'POST', as: amy }), 200, 'session of B on A');
    ben = await logIn(a, await signUp(b, a, 'ben'));
    await expectJson(b.call('/api/auth/test', { method: 'POST', as: ben }), 200, 'session of A on B');
    // B asked for Ben's mail, but B runs no worker: nothing ever reached B's outbox.
    expect(existsSync(join(b.dataDir, 'outbox'))).toBe(false);
  });

  let postId: string;

  it('2. serves an avatar uploaded on A from B, and a post image uploaded on B from A', async () => {
    const avatar = await expectJson<{ url: string }>(
      a.call('/api/upload/pfp', { method: 'POST', as: amy, form: multipartBody({}, [await picture('pfp', '#cc2200')]) }),
      201,
      'avatar on A',
    );
    expect(await bytesOf(b.call(avatar.url))).toEqual(await bytesOf(a.call(avatar.url)));

    postId = (await expectJson<{ _id: string }>(b.call('/api/post', { method: 'POST', as: amy, json: { text: `day ${digits()}` } }), 201, 'post on B'))._id;
    const image = await expectJson<{ url: string }>(
      b.call('/api/upload/image', { method: 'POST', as: amy, form: multipartBody({ id: postId, index: '0' }, [await picture('image', '#00aa33')]) }),
      201,
      'image on B',
    );
    expect(await bytesOf(a.call(image.url))).toEqual(await bytesOf(b.call(image.url)));
  });

  it('3. a comment sent to A reaches the live unread count of a stream open on B', async () => {
    const stream = await watchUnread(b, amy);
    try {
      // The stream sends the count as it is on connect; the comment's must come after it.
      await vi.waitFor(() => expect(stream.counts.length).toBeGreaterThan(0), { timeout: 10_000 });
      const before = stream.counts.at(-1)!;
      await expectJson(a.call('/api/comment/', { method: 'POST', as: ben, json: { text: 'Nice one!', parent: postId } }), 201, 'comment on A');
      // A's worker makes the notification; B hears of it through the database, never from A directly.
      await vi.waitFor(() => expect(stream.counts.at(-1)).toBe(before + 1), { timeout: 20_000, interval: 20 });
    } finally {
      stream.close();
    }
  });

  it('4. a post deleted through A leaves the visitor feed B keeps in memory', async () => {
    const visitorFeed = async () =>
      (await expectJson<{ posts: { _id: string }[] }>(b.call('/api/feed'), 200, 'visitor feed on B')).posts.map((post) => post._id);
    expect(await visitorFeed()).toContain(postId);
    await expectJson(a.call(`/api/post/${postId}`, { method: 'DELETE', as: amy }), 200, 'delete on A');
    // Well inside VISITOR_CACHE_MS: only A's signal through the database can make B forget its page.
    await vi.waitFor(async () => expect(await visitorFeed()).not.toContain(postId), { timeout: 5_000, interval: 20 });
  });

  it("5. a private group's image: its member reads it signed, an outsider and a visitor are refused", async () => {
    const group = await expectJson<{ group: { _id: string; name: string } }>(
      a.call('/api/group', { method: 'POST', as: amy, json: { name: `circle${digits()}`, isPrivate: true } }),
      201,
      'group on A',
    );
    const secret = (await expectJson<{ _id: string }>(
      b.call('/api/post', { method: 'POST', as: amy, json: { text: 'members only', groups: [group.group._id] } }),
      201,
      'group post on B',
    ))._id;
    await expectJson(
      a.call('/api/upload/image', { method: 'POST', as: amy, form: multipartBody({ id: secret, index: '0' }, [await picture('image', '#777700')]) }),
      201,
      'group image on A',
    );
    const [signed] = (await expectJson<{ media: string[] }>(a.call(`/api/post/${secret}`, { as: amy }), 200, 'member reads on A')).media;
    expect(signed).toMatch(/[?&]sig=/);
    // Signed by A, good on B too: the signing secret is the database's, not a process's.
    expect(await bytesOf(b.call(signed!))).toEqual(await bytesOf(a.call(signed!)));

    // The outsider is never handed a signed URL, and what they can guess is refused.
    expect((await b.call(`/api/post/${secret}`, { as: ben })).status).toBe(404);
    const unsigned = signed!.split('?')[0]!;
    const forged = signed!.replace(/sig=[^&]+/, 'sig=forged');
    for (const as of [ben, undefined]) {
      expect((await b.call(unsigned, { as })).status).toBe(404);
      expect((await b.call(forged, { as })).status).toBe(404);
    }
  });

  it("6. a device subscribed on B gets the push A's worker sends for a follow made on B", async () => {
    const device: TestDevice = newDevice(push!);
    await expectJson(b.call('/api/push/subscribe', { method: 'POST', as: amy, json: device.subscription }), 200, 'subscribe on B');
    await expectJson(b.call('/api/follow', { method: 'POST', as: ben, json: { following: amy.id } }), 201, 'follow on B');
    const delivered = await vi.waitFor(
      () => {
        const pushes = push!.received.filter((message) => message.path === device.path);
        expect(pushes.length).toBeGreaterThan(0);
        return pushes;
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(delivered.map((message) => decryptPush(device, message))).toContainEqual(
      expect.objectContaining({ title: `${ben.username} started following you`, url: `/u/${ben.username}` }),
    );
  });
});
