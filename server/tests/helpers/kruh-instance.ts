import { afterAll, beforeAll } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { freePort } from './free-port';
import { type TestApp, type TestAppOptions, createTestApp } from './test-app';

/**
 * A whole Kruh instance for federation tests: its own database and its own port on this machine,
 * federation on, its public address that port (`http://127.0.0.1:<port>`). Two of them talk to
 * each other over real HTTP, signed as between any two servers; plain http to this machine is
 * allowed only because FEDERATION_ALLOW_HTTP says so.
 */
export interface KruhInstance extends TestApp {
  origin: string;
  /** The host as handles name it (`127.0.0.1:<port>`). */
  host: string;
  /** Runs the queued jobs (deliveries among them) until none is due. */
  runJobs(): Promise<number>;
}

/**
 * Both instances run in the test's one process, on a machine other tests keep busy, so a document
 * may take longer than a remote server's should.
 */
const INSTANCE_ENV = { FEDERATION_FETCH_TIMEOUT_MS: '30000' };

export async function startInstance(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<KruhInstance> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const instance = await createTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: origin, ...INSTANCE_ENV, ...env }, options);
  await instance.app.listen({ port, host: '127.0.0.1' });
  return { ...instance, origin, host: `127.0.0.1:${port}`, runJobs: () => runDueJobs(instance.app) };
}

/** An instance for a describe block: started before its tests, closed after them. */
export function useInstance(): KruhInstance {
  let current: KruhInstance | undefined;
  beforeAll(async () => {
    current = await startInstance();
  });
  afterAll(async () => {
    await current?.close();
  });
  // Each field is read from the running instance when a test or hook uses it.
  return new Proxy({} as KruhInstance, {
    get(_target, key: string | symbol) {
      if (!current) throw new Error('the instance starts in beforeAll: use it inside a test or a hook');
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/** Runs both instances' jobs until neither has any left (a delivery may cause an answer). */
export async function settle(...instances: KruhInstance[]): Promise<void> {
  for (let round = 0; round < 10; round++) {
    let ran = 0;
    for (const instance of instances) ran += await instance.runJobs();
    if (ran === 0) return;
  }
}
