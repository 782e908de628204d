import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../src/db/database';
import { BUSY_RETRY_SECONDS } from '../../src/plugins/errors';
import { call, createUser } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';

const pgError = (message: string, code: string) => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });

describe('a busy database', () => {
  describe.runIf(TEST_DB === 'sqlite')('on SQLite, another connection holding the write lock', () => {
    const t = useTestApp();
    let other: SQLite.Database | undefined;
    afterEach(async () => {
      other?.exec('ROLLBACK');
      other?.close();
      other = undefined;
      await sql.raw(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`).execute(t.app.db);
    });

    it('answers 503 server_busy with Retry-After, never 500, and the write goes through once the lock is gone', async () => {
      const author = await createUser(t.app);
      // As the migrate or admin tool would: a write transaction on the same file, held on.
      other = new SQLite(join(t.config.dataDir, 'kruh.sqlite'));
      other.exec('BEGIN IMMEDIATE');
      // The app waits busy_timeout for the lock; the test need not wait the 5 s of a real one.
      await sql.raw('PRAGMA busy_timeout = 1').execute(t.app.db);
      const refused = await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: 'while the lock is held' } });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ message: 'error/server_busy' });
      expect(refused.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));

      other.exec('ROLLBACK');
      other.close();
      other = undefined;
      const sent = await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: 'once the lock is gone' } });
      expect(sent.statusCode, sent.body).toBe(201);
    });
  });

  describe('whatever the database', () => {
    let failure: unknown;
    // The liveness probe's handler fails with the error the test sets, as a query deep in a service would.
    const t = useTestApp({}, {
      onRoute: (route) => {
        if (route.url === '/api/health/live') {
          route.handler = () => {
            throw failure;
          };
        }
      },
    });

    it.each([
      ['SQLite busy', new SQLite.SqliteError('database is locked', 'SQLITE_BUSY')],
      ['SQLite busy snapshot', new SQLite.SqliteError('database is locked', 'SQLITE_BUSY_SNAPSHOT')],
      ['SQLite table locked', new SQLite.SqliteError('database table is locked', 'SQLITE_LOCKED')],
      ['PostgreSQL lock timeout', pgError('canceling statement due to lock timeout', '55P03')],
      ['PostgreSQL deadlock', pgError('deadlock detected', '40P01')],
      ['PostgreSQL serialization failure', pgError('could not serialize access', '40001')],
      ['PostgreSQL statement timeout', pgError('canceling statement due to statement timeout', '57014')],
      ['PostgreSQL out of connections', pgError('sorry, too many clients already', '53300')],
      ['a busy error wrapped in another', new Error('reading the feed failed', { cause: pgError('lock timeout', '55P03') })],
    ])('maps %s to 503 server_busy with Retry-After', async (_name, error) => {
      failure = error;
      const answer = await t.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ message: 'error/server_busy' });
      expect(answer.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
    });

    it.each([
      ['a constraint failure', new SQLite.SqliteError('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE')],
      ['a syntax error', pgError('syntax error', '42601')],
      ['a plain bug', new TypeError('x is undefined')],
    ])('still answers %s with 500 server_error', async (_name, error) => {
      failure = error;
      const answer = await t.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(answer.statusCode).toBe(500);
      expect(answer.json()).toEqual({ message: 'error/server_error' });
      expect(answer.headers['retry-after']).toBeUndefined();
    });
  });
});
