import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { prefersActivityJson } from './accept.js';
import { actorById, groupNamed, userNamed } from './federation.repository.js';
import { pageOf } from './actors/actor-dispatchers.js';
import { NODEINFO_PATH, actorUrl, buildFederation, visiblePost } from './federation.js';
import { NOTE_PATH } from './outbound/post-note.js';
import { makeInstanceKeys } from '../remote/instance-signer.js';
import { COMMENT_PATH, commentNote } from './outbound/comment-note.js';
import { knownContextLoader } from '../remote/document-loader.js';
import { INBOX_BODY_LIMIT, answerInbox, guardInbox } from './inbound/inbox-guard.js';
import { guardFetch } from './fetch-guard.js';
import { type NoteKind, goneResponse } from './outbound/tombstones.js';
import { appPaths } from '#core/app-paths';

/** The paths Fedify answers; everything else never reaches it. */
const FEDERATION_ROUTES = [
  { method: ['GET'], url: '/.well-known/webfinger' },
  { method: ['GET'], url: '/.well-known/nodeinfo' },
  { method: ['GET'], url: NODEINFO_PATH },
  { method: ['GET'], url: '/ap/*' },
  // Only the inboxes take a POST: bounded in size and passed through the federation's boundaries first.
  { method: ['POST'], url: '/ap/*', inbox: true },
] as const;

/** Bodies of activities posted to an inbox: kept as bytes, since their signature covers them as sent. */
const ACTIVITY_TYPES = ['application/activity+json', 'application/ld+json'];

const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/**
 * Hands the federation's requests to Fedify and writes its answer back: the request is rebuilt as
 * a fetch Request on the instance's public address (the one every actor URL is made of), and the
 * Response is sent as it is. A browser asking for an actor or one of its collections is sent to
 * the actor's page in the app.
 */
const federationRoutes: FastifyPluginAsync = async (app) => {
  const federation = buildFederation(app);
  const origin = app.config.publicUrl;

  for (const type of ACTIVITY_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  }

  /** The app's page of an actor (or one of its collections) or of a post's Note. */
  async function pageOfUri(request: Request): Promise<string | null> {
    const parsed = federation.createContext(request, undefined).parseUri(new URL(request.url));
    if (parsed?.type === 'object') {
      const id = parsed.values.id;
      return id && (await visiblePost(app, id)) ? appPaths.post(id) : null;
    }
    const identifier = parsed && 'identifier' in parsed ? parsed.identifier : undefined;
    const actor = identifier ? await actorById(app.db, identifier) : null;
    return actor ? pageOf(actor) : null;
  }

  /** The page, for a browser that asked for an ActivityPub address. */
  async function toPage(request: Request): Promise<Response> {
    const page = await pageOfUri(request);
    return page ? new Response(null, { status: 302, headers: { Location: new URL(page, origin).href, Vary: 'Accept' } }) : notFound();
  }

  function toRequest(request: FastifyRequest): Request {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const body = request.method === 'POST' && Buffer.isBuffer(request.body) ? request.body : undefined;
    return new Request(new URL(request.url, origin), { method: request.method, headers, ...(body ? { body: new Uint8Array(body) } : {}) });
  }

  async function send(reply: FastifyReply, response: Response) {
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  }

  /** A deleted post's or comment's Note answers 410 with its Tombstone (see tombstones.ts). */
  const goneNote = (kind: NoteKind, id: string) => goneResponse(app.db, origin, kind, id);

  // A comment's Note is served here, not by Fedify, which takes one object dispatcher per type
  // (the posts' Notes have it). Read as a visitor reads the comment, as a post's is.
  const fetchGuard = { preHandler: (request: FastifyRequest) => guardFetch(app, request) };
  app.get<{ Params: { id: string } }>(COMMENT_PATH.replace('{id}', ':id'), fetchGuard, async (request, reply) => {
    const found = await commentNote(app, request.params.id, (id) => new URL(actorUrl(origin, id)));
    if (!found) return send(reply, (prefersActivityJson(request.headers.accept) && (await goneNote('comment', request.params.id))) || notFound());
    reply.header('Vary', 'Accept');
    if (!prefersActivityJson(request.headers.accept)) return reply.redirect(new URL(appPaths.post(found.postId), origin).href, 302);
    return reply.type('application/activity+json').send(JSON.stringify(await found.note.toJsonLd({ contextLoader: knownContextLoader })));
  });

  /** Fedify finds no post: a deleted one's address says it is gone. */
  async function goneOrNotFound(request: Request): Promise<Response> {
    const parsed = federation.createContext(request, undefined).parseUri(new URL(request.url));
    const id = parsed?.type === 'object' ? parsed.values.id : undefined;
    return (id && (await goneNote('post', id))) || notFound();
  }

  const answer = (request: FastifyRequest) =>
    federation.fetch(toRequest(request), { contextData: undefined, onNotFound: goneOrNotFound, onNotAcceptable: toPage });
  for (const route of FEDERATION_ROUTES) {
    app.route({
      method: [...route.method],
      url: route.url,
      ...('inbox' in route
        ? {
            bodyLimit: INBOX_BODY_LIMIT,
            preHandler: (request: FastifyRequest, reply: FastifyReply) => guardInbox(app, request, reply),
            handler: async (request: FastifyRequest, reply: FastifyReply) => send(reply, await answerInbox(reply, () => answer(request))),
          }
        : { ...fetchGuard, handler: async (request: FastifyRequest, reply: FastifyReply) => send(reply, await answer(request)) }),
    });
  }
};

/** A profile's, group's or post's page address: `/u/<name>`, `/g/<name>` or `/p/<id>`. */
const PAGE_PATH = /^\/(u|g|p)\/([^/?#]+)\/?(?:\?.*)?$/;

/** The ActivityPub address of a page's user, group or post, when a visitor may read it. */
async function activityUrlOf(app: FastifyInstance, kind: string, name: string): Promise<string | null> {
  const origin = app.config.publicUrl;
  if (kind === 'p') return (await visiblePost(app, name)) ? new URL(NOTE_PATH.replace('{id}', encodeURIComponent(name)), origin).href : null;
  const actor = kind === 'u' ? await userNamed(app.db, name) : await groupNamed(app.db, name);
  return actor ? actorUrl(origin, actor.id) : null;
}

/**
 * A page's address asked for as an ActivityPub document (a fediverse user pasted a profile's or a
 * post's link into their server's search) is sent to the actor's or the Note's address; a browser
 * gets the page as always.
 */
async function pageToActor(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  if (request.method !== 'GET' || !prefersActivityJson(request.headers.accept)) return;
  const match = PAGE_PATH.exec(request.url);
  if (!match) return;
  let name: string;
  try {
    name = decodeURIComponent(match[2]!);
  } catch {
    return;
  }
  const target = await activityUrlOf(app, match[1]!, name);
  if (!target) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  return reply.header('Vary', 'Accept').redirect(target, 302);
}

/** The federation's routes, and the pages' addresses answering fediverse servers with their actor. */
export const federationPlugin = fp(
  async (app: FastifyInstance) => {
    // The instance actor's keys, made from the start in the background, for the signed fetches.
    app.addHook('onReady', async () => makeInstanceKeys(app));
    app.addHook('onRequest', async (request, reply) => pageToActor(app, request, reply));
    await app.register(federationRoutes);
  },
  { name: 'federation' },
);
