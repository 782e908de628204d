import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { parseLink, readMail } from '../auth/support';
import { REPO } from '../helpers/compiled-build';
import { freePort } from '../helpers/free-port';
import { multipartBody } from '../helpers/multipart';
import { type FolderProcess, type ProcessDatabase, processDatabase } from '../helpers/pg-processes';
import { TEST_DB } from '../helpers/test-app';
import { nginxConfig } from './proxy-configs';
import { REDIRECT, codeIn, form, pkcePair } from '../clientapi/oauth-helpers';

const run = promisify(execFile);

/**
 * The documented reverse proxies (deploy/nginx/kruh.conf, deploy/Caddyfile) as an operator runs
 * them, with a certificate made here, in front of two Kruh processes on one PostgreSQL database:
 * TLS, requests spread over both processes, an upload near the largest allowed, the live
 * notification stream passing each event at once, a fediverse app's streaming socket opening and
 * passing its messages, and the client's own address reaching Kruh
 * through TRUST_PROXY (the sign-up limit counts per address).
 */

const PROXIES = ['nginx', 'caddy'] as const;
type ProxyName = (typeof PROXIES)[number];
const onPath = (program: string) => (process.env.PATH ?? '').split(':').some((dir) => existsSync(join(dir, program)));
const missing = [...PROXIES, 'openssl'].filter((program) => !onPath(program));
if (missing.length > 0 && !process.env.CI) {
  console.warn(`reverse proxy test skipped: ${missing.join(', ')} not installed (apt-get install nginx caddy openssl; .ci/run installs them)`);
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** The client's own address (any of 127/8), so that the proxy sees a client of its own. */
  from?: string;
}

/** A proxy listening for HTTPS, trusted through the certificate authority `ca`. */
interface Proxy {
  origin: string;
  httpOrigin: string;
  ca: Buffer;
  child: ChildProcess;
  output(): string;
}

function open(proxy: Proxy, path: string, call: Call = {}): Promise<IncomingMessage> {
  const url = new URL(path, proxy.origin);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: call.method ?? 'GET', headers: call.headers, ca: proxy.ca, localAddress: call.from, agent: false }, resolve);
    req.on('error', reject);
    req.end(call.body);
  });
}

async function send(proxy: Proxy, path: string, call: Call = {}): Promise<Answer> {
  const res = await open(proxy, path, call);
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() };
}

const json = (body: unknown, token?: string): Call => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

/** Starts `program` and waits until the proxy answers Kruh's liveness over HTTPS. */
async function startProxy(program: string, args: string[], env: Record<string, string | undefined>, ports: { https: number; http: number }, ca: () => Buffer): Promise<Proxy> {
  const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const proxy: Proxy = { origin: `https://127.0.0.1:${ports.https}`, httpOrigin: `http://127.0.0.1:${ports.http}`, ca: Buffer.alloc(0), child, output: () => output };
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${program} ended (${child.exitCode}):\n${output}`);
      proxy.ca = ca();
      expect((await send(proxy, '/api/health/live')).status).toBe(200);
    },
    { timeout: 30_000, interval: 20 },
  );
  return proxy;
}

function stopProxy(proxy: Proxy | undefined): Promise<void> {
  if (!proxy || proxy.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proxy.child.kill('SIGKILL'), 5_000);
    proxy.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    proxy.child.kill('SIGTERM');
  });
}

/** An app's access token of the signed-in person, signed in through the proxy as an app does it. */
async function appTokenThrough(proxy: Proxy, session: string, scope: string): Promise<string> {
  const registered = await send(proxy, '/api/v1/apps', json({ client_name: 'Proxy app', redirect_uris: [REDIRECT], scopes: scope }));
  expect(registered.status, registered.text).toBe(200);
  const clientId = (JSON.parse(registered.text) as { client_id: string }).client_id;
  const { verifier, challenge } = pkcePair();
  const approval = await send(
    proxy,
    '/api/oauth/authorize',
    json({ client_id: clientId, redirect_uri: REDIRECT, scope, response_type: 'code', approve: true, code_challenge: challenge, code_challenge_method: 'S256' }, session),
  );
  expect(approval.status, approval.text).toBe(200);
  const code = codeIn((JSON.parse(approval.text) as { redirect: string }).redirect).code!;
  const fields = form({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier });
  const token = await send(proxy, '/oauth/token', { method: 'POST', headers: fields.headers, body: fields.payload });
  expect(token.status, token.text).toBe(200);
  return (JSON.parse(token.text) as { access_token: string }).access_token;
}

/** A WebSocket opened through the proxy: everything the server sends on it, as text (its frames' bytes unread). */
function openSocket(proxy: Proxy, path: string): Promise<{ received: () => string; close: () => void }> {
  const url = new URL(path, proxy.origin);
  return new Promise((resolve, reject) => {
    const headers = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') };
    const req = httpsRequest(url, { headers, ca: proxy.ca, agent: false });
    req.on('upgrade', (res, socket) => {
      expect(res.statusCode).toBe(101);
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      resolve({ received: () => text, close: () => socket.destroy() });
    });
    req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
}

/** A PNG just under the largest image Kruh takes: stored, not compressed, so its size is known before it is made. */
async function largestImage(): Promise<Buffer> {
  const width = 1200;
  const rowBytes = width * 3 + 1;
  const height = Math.floor((LIMITS.imageMaxBytes - 32 * 1024) / rowBytes);
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

describe.skipIf(TEST_DB !== 'postgres' || (missing.length > 0 && !process.env.CI))('Kruh behind the documented reverse proxies', () => {
  let folder = '';
  let database: ProcessDatabase | undefined;
  let kruh: FolderProcess[] = [];
  const proxies = new Map<ProxyName, Proxy>();

  beforeAll(async () => {
    expect(missing, 'CI installs these (.ci/run)').toEqual([]);
    folder = mkdtempSync(join(tmpdir(), 'kruh-proxy-'));
    database = await processDatabase('kruh_proxy');
    const env = {
      PUBLIC_URL: 'https://kruh.test',
      // Both proxies reach Kruh from here; the client addresses are others of 127/8.
      TRUST_PROXY: '127.0.0.1',
      RATE_SIGNUPS_PER_ADDRESS_PER_HOUR: '1',
      // One line per request, with the id the proxy gave it: which process answered.
      LOG_LEVEL: 'info',
    };
    const [a, b] = await Promise.all([database.start('A', env), database.start('B', { ...env, RUN_WORKER: 'false' })]);
    kruh = [a!, b!];
    const upstreams = kruh.map((started) => new URL(started.server.url).host);

    const cert = join(folder, 'cert.pem');
    const key = join(folder, 'key.pem');
    await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert]);
    const base = { PATH: process.env.PATH, HOME: folder };

    const nginx = join(folder, 'nginx');
    mkdirSync(nginx);
    const nginxPorts = { https: await freePort(), http: await freePort() };
    writeFileSync(join(nginx, 'kruh.conf'), nginxConfig(readFileSync(join(REPO, 'deploy/nginx/kruh.conf'), 'utf8'), { upstreams, ports: nginxPorts, cert, key }));
    // nginx's own main file, as Debian's /etc/nginx/nginx.conf holds the site's file: inside `http`.
    writeFileSync(
      join(nginx, 'nginx.conf'),
      [
        ...(userInfo().uid === 0 ? ['user root;'] : []),
        `pid ${nginx}/nginx.pid;`,
        'worker_processes 1;',
        'events { worker_connections 256; }',
        'http {',
        `  access_log ${nginx}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${nginx}/${kind};`),
        `  include ${nginx}/kruh.conf;`,
        '}',
      ].join('\n'),
    );
    const certificate = readFileSync(cert);
    proxies.set('nginx', await startProxy('nginx', ['-p', nginx, '-c', join(nginx, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'], base, nginxPorts, () => certificate));

    // Caddy reads the documented file unchanged, its two settings from the environment; the options
    // only a test needs (ports, no admin endpoint, its own certificate authority kept here rather
    // than trusted system-wide) come before it.
    const caddy = join(folder, 'caddy');
    mkdirSync(caddy);
    const caddyPorts = { https: await freePort(), http: await freePort() };
    writeFileSync(
      join(caddy, 'Caddyfile'),
      `{\n\tadmin off\n\tgrace_period 1s\n\tskip_install_trust\n\thttp_port ${caddyPorts.http}\n\thttps_port ${caddyPorts.https}\n\tstorage file_system ${caddy}/storage\n}\nimport ${join(REPO, 'deploy/Caddyfile')}\n`,
    );
    proxies.set(
      'caddy',
      await startProxy(
        'caddy',
        ['run', '--config', join(caddy, 'Caddyfile'), '--adapter', 'caddyfile'],
        { ...base, KRUH_DOMAIN: '127.0.0.1', KRUH_UPSTREAMS: upstreams.join(' ') },
        caddyPorts,
        () => readFileSync(join(caddy, 'storage/pki/authorities/local/root.crt')),
      ),
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all([...proxies.values()].map(stopProxy));
    await database?.close();
    for (const started of kruh) rmSync(started.folder, { recursive: true, force: true });
    if (folder) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  describe.each(PROXIES.map((name, i) => ({ name, net: `127.0.${i + 1}` })))('$name', ({ name, net }) => {
    const proxy = () => proxies.get(name)!;
    const password = 'secret12';
    const accounts: Record<string, { token: string; id: string }> = {};

    /** Signs up from `from`, confirms the address from the mail A's worker wrote, and logs in: all through the proxy. */
    async function signUp(username: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
      const email = `${username}@example.test`;
      const call = json({ username, email, password });
      const answer = await send(proxy(), '/api/auth/signup', { ...call, headers: { ...call.headers, ...headers }, from });
      if (answer.status !== 201) return answer;
      // Until its link is read: the file may be seen while it is still being written.
      const { token } = await vi.waitFor(() => parseLink(readMail(kruh[0]!.dataDir, email).link), { timeout: 20_000, interval: 20 });
      expect((await send(proxy(), `/api/auth/verify?${new URLSearchParams({ token, email }).toString()}`)).status).toBe(200);
      const login = await send(proxy(), '/api/auth/login', json({ username, password }));
      expect(login.status, login.text).toBe(200);
      const session = JSON.parse(login.text) as { token: string; user: { _id: string } };
      accounts[username] = { token: session.token, id: session.user._id };
      return answer;
    }
    const amy = `${name}amy${Date.now() % 100000}`;
    const ben = `${name}ben${Date.now() % 100000}`;

    it('answers over HTTPS, and sends plain HTTP there', async () => {
      expect((await send(proxy(), '/api/health/ready')).status).toBe(200);
      const plain = await new Promise<IncomingMessage>((resolve, reject) => httpRequest(`${proxy().httpOrigin}/feed`, resolve).on('error', reject).end());
      plain.resume();
      expect([301, 308]).toContain(plain.statusCode);
      expect(plain.headers.location).toMatch(/^https:\/\/127\.0\.0\.1(:\d+)?\/feed$/);
    });

    it('spreads requests over both processes', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const answer = await send(proxy(), '/api/feed');
        expect(answer.status).toBe(200);
        ids.push(String(answer.headers['x-request-id']));
      }
      // Each process logs the id the proxy gave the request once its answer has gone.
      await vi.waitFor(() => {
        const served = kruh.map((started) => ids.filter((id) => started.server.output().includes(`"reqId":"${id}"`)).length);
        expect(served[0]! + served[1]!).toBe(ids.length);
        expect(Math.min(...served), `answered by A and B: ${served.join(', ')}`).toBeGreaterThan(0);
      });
    });

    it("counts sign-ups by the client's own address, which a client cannot fake", async () => {
      expect((await signUp(amy, `${net}.2`)).status).toBe(201);
      // The proxy's address is every client's: had Kruh counted that, the next sign-up from anywhere would be refused.
      expect((await signUp(`${amy}x`, `${net}.2`)).status).toBe(429);
      expect((await signUp(ben, `${net}.3`, { 'x-forwarded-for': `${net}.2` })).status).toBe(201);
    }, 60_000);

    it('takes an upload just under the largest image', async () => {
      const image = await largestImage();
      expect(image.length).toBeGreaterThan(LIMITS.imageMaxBytes - 64 * 1024);
      const form = multipartBody({}, [{ field: 'pfp', filename: 'big.png', contentType: 'image/png', data: image }]);
      const answer = await send(proxy(), '/api/upload/pfp', {
        method: 'POST',
        headers: { ...form.headers, authorization: `Bearer ${accounts[amy]!.token}` },
        body: form.payload,
      });
      expect(answer.status, answer.text).toBe(201);
    }, 60_000);

    it("opens a fediverse app's streaming socket and passes its messages at once", async () => {
      const token = await appTokenThrough(proxy(), accounts[amy]!.token, 'read write');
      const socket = await openSocket(proxy(), `/api/v1/streaming?stream=public:local&access_token=${token}`);
      try {
        // The socket subscribes as it opens: a status made once it listens comes through at once.
        await vi.waitFor(
          async () => {
            const status = await send(proxy(), '/api/v1/statuses', json({ status: 'through the proxy' }, token));
            expect(status.status, status.text).toBe(200);
            const { id } = JSON.parse(status.text) as { id: string };
            await vi.waitFor(() => expect(socket.received()).toContain(id), { timeout: 1_000, interval: 50 });
          },
          { timeout: 15_000, interval: 100 },
        );
      } finally {
        socket.close();
      }
    }, 60_000);

    it('passes each event of the live notification stream at once', async () => {
      const cookie = await send(proxy(), '/api/notification/stream/cookie', { method: 'POST', headers: { authorization: `Bearer ${accounts[amy]!.token}` } });
      expect(cookie.status, cookie.text).toBe(200);
      const stream = await open(proxy(), '/api/notification/stream', { headers: { cookie: String(cookie.headers['set-cookie']).split(';')[0]! } });
      expect(stream.statusCode).toBe(200);
      const counts: number[] = [];
      let buffer = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffer += chunk;
        for (const match of buffer.matchAll(/event: unread\ndata: (.*)\n\n/g)) counts.push((JSON.parse(match[1]!) as { count: number }).count);
        buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
      });
      try {
        await vi.waitFor(() => expect(counts.length).toBeGreaterThan(0), { timeout: 10_000 });
        const before = counts.at(-1)!;
        const follow = await send(proxy(), '/api/follow', json({ following: accounts[amy]!.id }, accounts[ben]!.token));
        expect(follow.status, follow.text).toBe(201);
        // A's worker makes the notification, whichever process holds the stream; a proxy that held
        // the stream's bytes back would show it only much later, with the next heartbeat or never.
        await vi.waitFor(() => expect(counts.at(-1)).toBe(before + 1), { timeout: 10_000, interval: 50 });
      } finally {
        stream.destroy();
      }
    }, 60_000);
  });
});
