import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server that answers `/hop/<n>` with a redirect to `/hop/<n+1>` until `hops` redirects were
 * made, then with a small JSON document; each answer after `delayMs`, as a slow server's. Keeps
 * the path of every request, in order.
 */
export interface RedirectChain {
  /** The first address of the chain. */
  start: string;
  asked: string[];
  close(): Promise<void>;
}

export async function startRedirectChain(hops: number, delayMs = 0): Promise<RedirectChain> {
  const asked: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    asked.push(path);
    const step = Number(/^\/hop\/(\d+)/.exec(path)?.[1] ?? hops);
    setTimeout(() => {
      if (step < hops) response.writeHead(302, { Location: `/hop/${step + 1}` }).end();
      else response.writeHead(200, { 'Content-Type': 'application/activity+json' }).end(JSON.stringify({ id: `${origin}${path}` }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    start: `${origin}/hop/0`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Answers still delayed would keep it open.
        server.closeAllConnections();
      }),
  };
}
