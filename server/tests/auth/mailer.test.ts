import { mkdtempSync, readFileSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer, outboxName } from '../../src/lib/mailer';

describe('mailer without SMTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kruh-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes each message as a file with headers and the links whole, and logs the file and its links', async () => {
    const logged: unknown[] = [];
    const log = { info: (obj: unknown) => logged.push(obj) } as unknown as FastifyBaseLogger;
    const mailer = createMailer({ smtpUrl: undefined, from: 'Kruh <no-reply@kruh.test>', outboxDir: dir, log });
    const link = `http://kruh.test/verify?token=${'t'.repeat(90)}&email=a%40example.test`;
    await mailer.send({ kind: 'verify', to: 'A@Example.test', subject: 'Hello', text: `Open:\n\n${link}\n` });
    await mailer.send({ kind: 'verify', to: 'a@example.test', subject: 'Second', text: 'no link' });

    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(new RegExp(`^\\d{13}-\\d{6}-${outboxName('a@example.test')}\\.eml$`));
    const content = readFileSync(join(dir, files[0]!), 'utf8');
    expect(content).toMatch(/^From: Kruh <no-reply@kruh\.test>\nTo: A@Example\.test\nSubject: Hello\nDate: .+\n/);
    expect(content).toContain(`\n${link}\n`);
    expect(readFileSync(join(dir, files[1]!), 'utf8')).toContain('Subject: Second');
    expect(logged[0]).toMatchObject({ to: 'A@Example.test', file: join(dir, files[0]!) });
    expect(JSON.stringify(logged)).toContain('t'.repeat(90));
  });

  it('shows a message under its name only once it is whole, so a reader never takes half a mail', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kruh-outbox-whole-'));
    const log = { info: () => undefined } as unknown as FastifyBaseLogger;
    const mailer = createMailer({ smtpUrl: undefined, from: 'Kruh <no-reply@kruh.test>', outboxDir: folder, log });
    // Large enough that the file is written in several pieces, with the event loop turning between them.
    const text = 'x'.repeat(8 * 1024 * 1024);
    const seen: number[] = [];
    const watcher = watch(folder, (_event, name) => {
      if (!name?.endsWith('.eml')) return;
      try {
        seen.push(readFileSync(join(folder, name), 'utf8').length);
      } catch {
        // Gone or not yet there under that name: nothing a reader could have taken.
      }
    });
    try {
      await mailer.send({ kind: 'verify', to: 'big@example.test', subject: 'Big', text });
    } finally {
      watcher.close();
    }
    const [file] = readdirSync(folder);
    const whole = readFileSync(join(folder, file!), 'utf8').length;
    expect(readdirSync(folder)).toHaveLength(1);
    expect(whole).toBeGreaterThan(text.length);
    expect(seen.filter((length) => length !== whole)).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });
});
