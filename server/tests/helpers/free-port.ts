import { createServer } from 'node:net';

/**
 * A port nothing listens on yet, for a process or a fake service a test starts itself: the system
 * picks one, and it is released at once for the caller to take.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
