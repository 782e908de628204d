import { describe, expect, it } from 'vitest';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

describe('the request log', () => {
  const lines: Record<string, unknown>[] = [];
  const t = useTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });

  it('writes one line per request: method, route pattern, status, time and request id', async () => {
    const user = await createUser(t.app);
    lines.length = 0;
    const calls = [
      { url: '/api/health', route: '/api/health', status: 200 },
      { url: `/api/profile/user/${user.username}`, route: '/api/profile/user/:username', status: 200, headers: user.auth },
      { url: '/api/profile/user/nobodyhereatall', route: '/api/profile/user/:username', status: 404, headers: user.auth },
    ];
    for (const { url, route, status, headers } of calls) {
      const answer = await t.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });
      expect(answer.statusCode).toBe(status);
      const own = lines.filter((line) => line.reqId === answer.headers['x-request-id']);
      expect(own, url).toHaveLength(1);
      expect(own[0]).toMatchObject({ level: 30, msg: 'request', method: 'GET', route, status });
      expect(own[0]!.ms).toEqual(expect.any(Number));
    }
    // Every line of those requests was one of theirs: nothing logged twice, nothing without an id.
    expect(lines).toHaveLength(calls.length);
  });

  it('names a path no route takes by its address, credentials hidden', async () => {
    lines.length = 0;
    const answer = await t.app.inject({ method: 'GET', url: '/api/nowhere?token=secret123' });
    expect(answer.statusCode).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ msg: 'request', url: '/api/nowhere?token=[redacted]', status: 404, reqId: answer.headers['x-request-id'] })]);
    expect(JSON.stringify(lines)).not.toContain('secret123');
  });
});
