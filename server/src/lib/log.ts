import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry credentials: the EventSource token, email link tokens, signed media
 * URLs. Their values never reach the logs.
 */
const SECRET_PARAMS = /([?&](?:token|access_token|sig|code)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Fastify's request log line (method, url, host, address) with secret query values hidden. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
