import { type Static, Type } from '@sinclair/typebox';
import { endpoint, plainEntry } from './endpoint.js';

/** `database` names the dialect in use (sqlite or postgres). */
export const HealthReply = Type.Object({ status: Type.Literal('ok'), database: Type.String() });
export type HealthReply = Static<typeof HealthReply>;

export const LiveReply = Type.Object({ status: Type.Literal('ok') });
export type LiveReply = Static<typeof LiveReply>;

const CheckResult = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);
/** Each thing a request needs and whether it answered; `status` is ok only when every one did. */
export const ReadyReply = Type.Object({
  status: CheckResult,
  checks: Type.Object({ database: CheckResult, storage: CheckResult }),
});
export type ReadyReply = Static<typeof ReadyReply>;

/** The health calls of the API (see endpoint.ts for how an entry is read). */
export const healthApi = {
  /** The route also answers 503 `{message: "error/server_error"}` while the database does not answer. */
  check: plainEntry('GET', '/health', 'Whether the server and its database answer (what a load balancer polls)', HealthReply),
  /** What an orchestrator's liveness probe polls: a failure means restart the process. */
  live: plainEntry('GET', '/health/live', 'Whether the server process runs (200 while it can answer at all)', LiveReply),
  /** The route also answers 503 with the same shape, `status: "unavailable"`, naming what failed. */
  ready: endpoint({
    method: 'GET',
    path: '/health/ready',
    summary: 'Whether the server can serve requests: its database and its media storage answer',
    description: 'Answers 503 with the same body when one of them does not, naming it under `checks`; send traffic elsewhere meanwhile.',
    replies: { 200: ReadyReply },
    errors: [],
  }),
} as const;
