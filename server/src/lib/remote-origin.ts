import type { RemoteOrigin } from '#core/api/common';
import { webUrlOf } from '#core/remote-names';
import { hostWithPortOf } from './hosts.js';

/**
 * Where remote content comes from, as replies carry it: the host of its ActivityPub id (the server
 * that holds it) and its page there. Null for what was made here, which has no such id.
 */
export function remoteOriginOf(apId: string | null, url: string | null): RemoteOrigin | null {
  if (!apId) return null;
  try {
    return { host: hostWithPortOf(new URL(apId)), url: webUrlOf(url) };
  } catch {
    return null;
  }
}
