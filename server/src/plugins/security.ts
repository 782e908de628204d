import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { AppError, badRequest } from '../lib/app-error.js';

/** Longer URLs are refused before routing; the longest real one (a GIF search) stays well under. */
export const MAX_URL_LENGTH = 8192;

/** API answers are per-caller and change with every write: no browser or proxy may keep them. */
export function noStoreOnApi(request: FastifyRequest, reply: FastifyReply): void {
  if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?')) {
    reply.header('Cache-Control', 'no-store');
  }
}

/**
 * Whether any string (object keys included) or number inside a parsed value passes `test`. Walked
 * without recursion, so a deeply nested body cannot overflow the stack.
 */
export function someScalar(value: unknown, test: (scalar: string | number) => boolean): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' || typeof item === 'number') {
      if (test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item)) {
      for (const [key, child] of Object.entries(item)) {
        if (test(key)) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** PostgreSQL refuses NUL in text while SQLite would store it, so it is refused before either sees it. */
export const containsNul = (value: unknown): boolean => someScalar(value, (s) => typeof s === 'string' && s.includes('\0'));

/**
 * The headers helmet sets with these options, in its order (a null value: a header it removes).
 * Worked out once at start: @fastify/helmet builds helmet again on every request, which parses
 * the CSP directives each time. None of ours depends on the request, so the values never change.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): [string, string | null][] {
  const headers: [string, string | null][] = [];
  const recorder = {
    setHeader(name: string, value: string) {
      headers.push([name, value]);
    },
    removeHeader(name: string) {
      headers.push([name, null]);
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers and the checks every request passes whatever its route: URL length, no
 * caching of API answers, no NUL in anything the request carries (path, query, headers, body).
 * The CSP admits only what the web app loads: Google sign-in, Tenor GIFs and, with MEDIA_URL, the
 * content host of media (as an image, and to the service worker, which fetches media to cache it).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, opts: { mediaUrl?: string | undefined; inlineScripts?: string[] }) => {
    const mediaOrigin = opts.mediaUrl ? [new URL(opts.mediaUrl).origin] : [];
    app.addHook('onRequest', (request, reply, done) => {
      noStoreOnApi(request, reply);
      done(request.url.length > MAX_URL_LENGTH ? new AppError(414, 'uri_too_long') : undefined);
    });
    app.addHook('preValidation', async (request) => {
      if ([request.params, request.query, request.headers, request.body].some(containsNul)) throw badRequest('invalid_characters');
    });
    const headers = securityHeaders({
      crossOriginEmbedderPolicy: false,
      // Google Identity Services opens its popup and needs the opener relation kept.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client', ...(opts.inlineScripts ?? [])],
          styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
          imgSrc: ["'self'", 'data:', 'blob:', 'https://media.tenor.com', 'https://*.googleusercontent.com', ...mediaOrigin],
          // GIF search goes through the server (the Tenor key stays there); only previews load from Tenor.
          connectSrc: ["'self'", 'https://accounts.google.com/gsi/', ...mediaOrigin],
          frameSrc: ['https://accounts.google.com/gsi/'],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
    });
    // After the checks above, as before: a refused request (414) gets no security headers.
    app.addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of headers) {
        if (value === null) reply.raw.removeHeader(name);
        else reply.raw.setHeader(name, value);
      }
      done();
    });
  },
  { name: 'security' },
);
