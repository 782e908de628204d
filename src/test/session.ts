import { vi } from 'vitest';
import { authApi } from '#core/api/auth';
import { callApi } from '../lib/api/client';
import { storeSession } from '../lib/session';

/**
 * Logs in and has the server refuse the session's token once, as it does after the password was
 * changed on another device; the fetch in place before is put back afterwards.
 */
export async function refuseSession(token = 'token-1', username = 'alice', id = 'u1'): Promise<void> {
  storeSession(token, username, id);
  const before = globalThis.fetch;
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'error/invalid_token' }), { status: 401 }));
  try {
    await callApi(authApi.test).catch(() => undefined);
  } finally {
    vi.stubGlobal('fetch', before);
  }
}
