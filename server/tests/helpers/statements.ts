import { expect } from 'vitest';
import { type TestUser, call } from './fixtures';
import { type TestApp, useTestApp } from './test-app';

/**
 * An app whose statements are counted while one request is served: what a read costs the
 * database in round trips, which on PostgreSQL each go to another process.
 */
export function useStatementCounter(): { t: TestApp; statementsOf(user: TestUser | null, url: string): Promise<string[]> } {
  let statements: string[] | undefined;
  const t = useTestApp({}, { onQuery: (sql) => statements?.push(sql) });

  async function statementsOf(user: TestUser | null, url: string): Promise<string[]> {
    const seen: string[] = [];
    statements = seen;
    try {
      const res = await call(t.app, user, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      statements = undefined;
    }
    return seen;
  }

  return { t, statementsOf };
}
