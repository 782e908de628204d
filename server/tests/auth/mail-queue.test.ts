import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MAIL_JOB } from '../../src/modules/auth/auth.emails';
import { retryDelay, runDueJobs } from '../../src/lib/jobs/worker';
import { freePort } from '../helpers/free-port';
import { createTestApp, type TestApp, useTestApp } from '../helpers/test-app';
import { expectError, expectSignedUp, login, parseLink, signup } from './support';

interface Received {
  to: string[];
  raw: string;
}

/** A local SMTP sink that keeps every message it is handed. */
async function startSink(port: number): Promise<{ received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The body of a plain-text message, quoted-printable decoded when so encoded. */
function bodyOf(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('account mail through the job queue', () => {
  let t: TestApp;
  let port: number;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${port}`, METRICS_TOKEN, LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    );
  });
  afterAll(async () => t.close());

  const mailJobs = () => t.app.db.selectFrom('jobs').selectAll().where('kind', '=', ACCOUNT_MAIL_JOB).execute();
  const mailMetrics = async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    const value = (result: string) => Number(new RegExp(`^kruh_mail_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    return { sent: value('sent'), failed: value('failed') };
  };
  const mailLines = () => lines.filter((line) => line.msg === 'mail sent' || line.msg === 'mail not sent');

  it('keeps the verification mail of a sign-up made while SMTP is down, and sends it once it is back', async () => {
    const res = await signup(t.app, { username: 'Patient', email: 'patient@example.test', password: 'secret12' });
    expectSignedUp(res, 'signup_email');

    // Nothing listens on the port: the attempt fails and the job waits for a later try.
    const start = Date.now();
    await runDueJobs(t.app, { clock: () => start });
    const [failed] = await mailJobs();
    expect(failed).toMatchObject({ attempts: 1, locked_until: null });
    expect(failed!.last_error).toMatch(/ECONNREFUSED/);
    expect(await mailMetrics()).toEqual({ sent: 0, failed: 1 });
    expect(mailLines()).toEqual([expect.objectContaining({ level: 40, msg: 'mail not sent', kind: 'verify', to: 'p***@example.test' })]);
    expect(Number(failed!.run_at)).toBe(start + retryDelay(1));
    // Not due yet: nothing runs.
    expect(await runDueJobs(t.app, { clock: () => start })).toBe(0);

    const sink = await startSink(port);
    try {
      await runDueJobs(t.app, { clock: () => start + retryDelay(1) });
      expect(await mailJobs()).toEqual([]);
      expect(sink.received).toHaveLength(1);
      const [mail] = sink.received;
      expect(mail!.to).toEqual(['patient@example.test']);
      expect(mail!.raw).toMatch(/^Subject: Confirm your email address for Kruh/m);
      const link = /https?:\/\/\S+/.exec(bodyOf(mail!.raw))?.[0];
      expect(link).toMatch(/^http:\/\/kruh\.test\/verify\?token=/);
      const { token, email } = parseLink(link);
      expect(email).toBe('patient@example.test');
      // One line for the mail sent: its kind, the recipient masked and the id the mail server knows it by; no link.
      expect(await mailMetrics()).toEqual({ sent: 1, failed: 1 });
      const messageId = /^Message-ID: (<[^>]+>)/im.exec(mail!.raw)?.[1];
      expect(messageId).toBeDefined();
      expect(mailLines()[1]).toEqual(expect.objectContaining({ level: 30, msg: 'mail sent', kind: 'verify', to: 'p***@example.test', messageId }));
      expect(JSON.stringify(mailLines())).not.toContain('patient@example.test');
      expect(JSON.stringify(lines)).not.toContain(token);
      const verified = await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}` });
      expect(verified.json()).toEqual({ message: 'info/email_verified' });
      expect((await login(t.app, 'Patient', 'secret12')).statusCode).toBe(200);
    } finally {
      await sink.close();
    }
  });

  it('queues the mail with the change that asks for it, holding no link until it is sent', async () => {
    const created = await signup(t.app, { username: 'Queued', email: 'queued@example.test', password: 'secret12' });
    expect(created.statusCode).toBe(201);
    const [job] = await mailJobs();
    expect(JSON.parse(job!.payload)).toMatchObject({ kind: 'verify', email: 'queued@example.test' });
    // No link exists before the mail goes out, and the job holds none (the sign-up's own key,
    // kept by the browser, is never mailed).
    expect(job!.payload).not.toMatch(/token=/);
    const user = await t.app.db.selectFrom('users').select('id').where('username_lower', '=', 'queued').executeTakeFirstOrThrow();
    expect(await t.app.db.selectFrom('email_tokens').select('purpose').where('user_id', '=', user.id).execute()).toEqual([{ purpose: 'signup_login' }]);
    expectError(await login(t.app, 'Queued', 'secret12'), 403, 'verify_email');
    await t.app.db.deleteFrom('jobs').where('kind', '=', ACCOUNT_MAIL_JOB).execute();
  });
});

describe('account mail without SMTP', () => {
  const t = useTestApp();

  it('writes the outbox file from the queue, not during the request', async () => {
    const res = await signup(t.app, { username: 'Folder', email: 'folder@example.test', password: 'secret12' });
    expect(res.statusCode).toBe(201);
    const outbox = join(t.config.dataDir, 'outbox');
    const files = () => (existsSync(outbox) ? readdirSync(outbox) : []);
    expect(files()).toEqual([]);
    await runDueJobs(t.app);
    expect(files()).toHaveLength(1);
    expect(files()[0]).toMatch(/folder@example\.test\.eml$/);
  });
});
