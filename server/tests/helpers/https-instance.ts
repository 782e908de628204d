import { type Socket, connect } from 'node:net';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:tls';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { freePort } from './free-port';
import type { KruhInstance } from './kruh-instance';
import { type TestAppOptions, createTestApp } from './test-app';

/**
 * A Kruh instance reached over https under a name, as a peer on the internet reaches one: its
 * public address is `https://<hostname>` (no port, so handles read `name@<hostname>`), and an https
 * front on 127.0.0.1 (`httpsPort`) hands each connection, decrypted, to the instance behind it, as
 * a reverse proxy would. The peer is told that the name and port 443 lead to that front. The
 * instance itself reaches other servers on this machine over plain http (FEDERATION_ALLOW_HTTP).
 */
export interface HttpsInstance extends KruhInstance {
  httpsPort: number;
}

export async function startHttpsInstance(
  hostname: string,
  certificate: { key: string; cert: string },
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<HttpsInstance> {
  const port = await freePort();
  const origin = `https://${hostname}`;
  const instance = await createTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: origin, ...env }, options);
  await instance.app.listen({ port, host: '127.0.0.1' });
  const open = new Set<Socket>();
  const front = createServer(certificate, (socket) => {
    const upstream = connect(port, '127.0.0.1');
    for (const end of [socket, upstream]) {
      open.add(end);
      end.on('close', () => open.delete(end));
    }
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    ...instance,
    origin,
    host: hostname,
    httpsPort: (front.address() as AddressInfo).port,
    runJobs: () => runDueJobs(instance.app),
    async close() {
      // The peer keeps its connections alive; they end with the test.
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await instance.close();
    },
  };
}
