import { pipeline, type Readable } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { acceptedEncoding, type Encoding } from '../lib/accept-encoding.js';

/** Smaller answers go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Types worth compressing. Pictures, archives (the data export) are compressed already, and an event
 * stream must reach the browser event by event.
 */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

/** Brotli at the quality that costs about what gzip does; the build's files get 11, once. */
const BROTLI_QUALITY = 4;
const compress: Record<Encoding, (body: Buffer | string) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) } }),
  gzip: (body) => gzipSync(body, { level: 6 }),
};
const compressor = { br: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }), gzip: () => createGzip({ level: 6 }) };

/** No body (204, 304) or a part of one (206): nothing to compress, or a range of the plain bytes. */
const UNTOUCHED_STATUSES = new Set([204, 206, 304]);

const isReadable = (payload: unknown): payload is Readable => typeof (payload as Readable | null)?.pipe === 'function';

/** The size of the body: the bytes of one made in memory, the Content-Length a file is sent with. */
function sizeOf(payload: unknown, reply: FastifyReply): number {
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) return Buffer.byteLength(payload);
  return Number(reply.getHeader('content-length') ?? 0) || 0;
}

/**
 * The last answers compressed, by their text: a visitor page kept in memory (visitor-cache) goes out
 * as the same string again and again, and is compressed once rather than at every hit.
 */
const RECENT_ENTRIES = 16;
const RECENT_MAX_CHARS = 64 * 1024;

function addVary(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary)) return;
  reply.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Text answers of COMPRESS_MIN_BYTES or more go compressed to a client that accepts brotli or gzip:
 * JSON and other answers made in memory, and files of the web app the build wrote no compressed
 * copy of (those it did, the static plugin sends as they are: preCompressed). Media is compressed
 * already, and the notification stream is written to the socket directly, event by event.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    const recent: Record<Encoding, Map<string, Buffer>> = { br: new Map(), gzip: new Map() };
    const encoded = (encoding: Encoding, body: Buffer | string): Buffer => {
      if (typeof body !== 'string' || body.length > RECENT_MAX_CHARS) return compress[encoding](body);
      const kept = recent[encoding];
      let out = kept.get(body);
      if (!out) {
        out = compress[encoding](body);
        if (kept.size >= RECENT_ENTRIES) kept.delete(kept.keys().next().value as string);
        kept.set(body, out);
      }
      return out;
    };

    app.addHook('onSend', (request, reply, payload, done) => {
      const inMemory = typeof payload === 'string' || Buffer.isBuffer(payload);
      if (!inMemory && !isReadable(payload)) return done(null, payload);
      if (UNTOUCHED_STATUSES.has(reply.statusCode) || reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) return done(null, payload);
      if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
      if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return done(null, payload);
      if (sizeOf(payload, reply) < COMPRESS_MIN_BYTES) return done(null, payload);
      // The same URL answers differently by this header: caches must keep the answers apart.
      addVary(reply);
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      if (!encoding) return done(null, payload);
      reply.header('Content-Encoding', encoding).removeHeader('content-length');
      if (inMemory) return done(null, encoded(encoding, payload as Buffer | string));
      // A failing read ends the compressed stream with its error, which Fastify logs and closes on.
      done(null, pipeline(payload as Readable, compressor[encoding](), () => {}));
    });
  },
  { name: 'compression' },
);
