import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { enqueueDeliveries } from '../../src/modules/federation/outbound/delivery';
import { keyPairsOf } from '../../src/modules/remote/actor-keys';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * A lane of many slots (deliveries) claims again once a quarter of it is free, not after every job
 * that ends: each claim is a statement over the lane's whole backlog, which on SQLite holds the
 * process, its readers included. Every job still runs, within the lane's bound.
 */

const DELIVERIES = 60;
const LANE = 8;

describe('jobs: a wide lane claims in batches', () => {
  let statements: string[] = [];
  const t = useTestApp(
    { FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: 'https://kruh.example', FEDERATION_DELIVERY_CONCURRENCY: String(LANE), FEDERATION_DELIVERY_PER_HOST: String(LANE) },
    { onQuery: (sql) => statements.push(sql) },
  );
  let inbox: Server;
  let port = 0;
  let taken = 0;
  let inFlight = 0;
  let mostInFlight = 0;

  beforeAll(async () => {
    // Answers each delivery after a few milliseconds of its own, so they end one by one.
    inbox = createServer((request, response) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      request.resume();
      request.on('end', () =>
        setTimeout(() => {
          taken++;
          inFlight--;
          response.statusCode = 202;
          response.end();
        }, 2 + Math.random() * 20),
      );
    });
    await new Promise<void>((resolve) => inbox.listen(0, '127.0.0.1', resolve));
    port = (inbox.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => inbox.close(() => resolve())));

  it('delivers everything with far fewer claims than deliveries', async () => {
    const author = await createUser(t.app);
    await keyPairsOf(t.app, author.id);
    const keyId = `https://kruh.example/ap/actors/${author.id}#main-key`;
    await enqueueDeliveries(
      t.app.db,
      Array.from({ length: DELIVERIES }, (_, i) => ({ actorId: author.id, keyId, inbox: `http://127.0.0.1:${port}/users/u${i}/inbox`, activity: { id: `https://kruh.example/a${i}` } })),
    );
    statements = [];
    await runDueJobs(t.app);
    const claims = statements.filter((sql) => sql.includes('"busy"')).length;
    expect(taken).toBe(DELIVERIES);
    expect(mostInFlight).toBeLessThanOrEqual(LANE);
    expect(claims).toBeGreaterThan(0);
    // One claim per job that ends would be about DELIVERIES; one per quarter of the lane, about a half of it here.
    expect(claims).toBeLessThan(DELIVERIES * 0.7);
  }, 60_000);
});
