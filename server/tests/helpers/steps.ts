import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A setup step's answer, or a thrown error naming the step, so a broken scenario says where it broke. */
export function ok(res: LightMyRequestResponse, what: string): LightMyRequestResponse {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res;
}

/** Runs the jobs that are due now (notification fan-out and the rest), as the worker would. */
export async function runJobs(app: FastifyInstance): Promise<void> {
  const { runDueJobs } = await import('../../src/lib/jobs/worker');
  await runDueJobs(app);
}
