import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startupMessage, startupSummary } from '../../src/config';
import { REPO } from '../helpers/compiled-build';
import { startServerProcess, typeScriptServerArgs } from '../helpers/server-process';
import { TEST_DB } from '../helpers/test-app';

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** A started server says in one line what it runs: its version, database, media, worker, federation and mail. */
describe('the start-up line', () => {
  it('names every part, with no password or key of their URLs', () => {
    const summary = startupSummary(
      {
        dataDir: '/srv/kruh/data',
        databaseUrl: 'postgres://kruh:db-password@db.internal:5432/kruh',
        mediaStorage: { kind: 's3', bucket: 'kruh-media', endpoint: 'http://garage:3900', region: 'garage', credentials: { accessKeyId: 'AKIA', secretAccessKey: 's3-secret' }, forcePathStyle: true },
        runWorker: false,
        federation: true,
        smtpUrl: 'smtp://mailer:smtp-password@mail.example.com:587',
      },
      '1.2.3',
    );
    expect(summary).toEqual({
      version: '1.2.3',
      database: 'postgresql db.internal:5432/kruh',
      media: 's3 bucket kruh-media at http://garage:3900',
      worker: 'off',
      federation: 'on',
      mail: 'smtp mail.example.com:587',
    });
    expect(startupMessage(summary)).toBe(
      'Kruh 1.2.3 started: database postgresql db.internal:5432/kruh, media s3 bucket kruh-media at http://garage:3900, worker off, federation on, mail smtp mail.example.com:587',
    );
  });

  it.skipIf(TEST_DB !== 'sqlite')('is logged once the server listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kruh-startup-'));
    const dataDir = join(dir, 'data');
    const server = await startServerProcess(typeScriptServerArgs(), { cwd: dir, env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'info', WEB_DIR: join(dir, 'no-web') } });
    try {
      const expected = `Kruh ${VERSION} started: database sqlite ${join(dataDir, 'kruh.sqlite')}, media local ${join(dataDir, 'media')}, worker on, federation off, mail outbox ${join(dataDir, 'outbox')}`;
      await vi.waitFor(() => expect(server.output()).toContain(`"msg":"${expected}"`), { timeout: 10_000, interval: 50 });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
