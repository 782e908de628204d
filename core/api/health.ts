import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.js';

/** `database` names the dialect in use (sqlite or postgres). */
export const HealthReply = Type.Object({ status: Type.Literal('ok'), database: Type.String() });
export type HealthReply = Static<typeof HealthReply>;

/** The health calls of the API (see endpoint.ts for how an entry is read). */
export const healthApi = {
  /** The route also answers 503 `{message: "error/server_error"}` while the database does not answer. */
  check: endpoint({
    method: 'GET',
    path: '/health',
    summary: 'Whether the server and its database answer (what a load balancer polls)',
    replies: { 200: HealthReply },
    errors: [],
  }),
} as const;
