import { Object as APObject } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { type NoteContext, type Writing, isAuthor, isWriting, readNote } from './notes.js';
import { visitorReads } from './remote-viewers.js';
import { storeComment, storeReadPost } from './stored-writings.js';
import { targetOf } from './targets.js';

/**
 * Notes fetched at most above a wanted reply whose thread is not here: enough for the threads
 * people answer, and a bound on what one reply can make the instance read.
 */
export const THREAD_FETCHES = 5;

/**
 * A Note another server serves at its own address, read through the guarded loader (a blocked
 * domain or a private address is never read), with the author it names on that same server; null
 * for anything else, or when it cannot be read.
 */
export async function fetchWriting(app: FastifyInstance, ctx: NoteContext, uri: URL): Promise<{ note: Writing; authorId: URL } | null> {
  try {
    const { document, documentUrl } = await ctx.documentLoader(uri.href);
    const object = await APObject.fromJsonLd(document, { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, baseUrl: new URL(documentUrl) });
    const authorId = isWriting(object) ? object.attributionId : null;
    if (!isWriting(object) || object.id?.href !== uri.href || new URL(documentUrl).origin !== uri.origin || !isAuthor(object, authorId)) return null;
    return { note: object, authorId };
  } catch (error) {
    app.log.info({ err: error, uri: uri.href }, 'note not read at its server');
    return null;
  }
}

/**
 * What a wanted reply answers, fetching the part of its thread that is not here: walking up its
 * answers to the root, at most `fetches` Notes, it stores the root as a post of its author and the
 * answers between as comments, all without telling anyone (context, as an old post read from an
 * outbox is). Null, and nothing stored, when an ancestor is not public, cannot be read, is gone
 * here, or the root is further up than the bound.
 */
export async function fetchThread(app: FastifyInstance, ctx: NoteContext, uri: URL, fetches: number): Promise<{ id: string; postId: string } | null> {
  const target = await targetOf(app, ctx, uri);
  if (target) return target.deleted ? null : target;
  if (fetches <= 0 || uri.origin === new URL(app.config.publicUrl).origin) return null;
  const fetched = await fetchWriting(app, ctx, uri);
  if (!fetched) return null;
  const read = await readNote(app, ctx, fetched.note);
  if (!read.isPublic) return null;
  if (read.replyTo) {
    const parent = await fetchThread(app, ctx, read.replyTo, fetches - 1);
    if (!parent || !(await visitorReads(app, parent.postId))) return null;
    await storeComment(app, ctx, read, fetched.authorId, parent.id, true);
  } else {
    if (read.text === '' && read.media.length === 0) return null;
    if (!(await storeReadPost(app, ctx, read, fetched.authorId, { quiet: true }))) return null;
  }
  // Stored now, by this walk or meanwhile by another delivery; or refused (a block, a limit).
  const stored = await targetOf(app, ctx, uri);
  return stored && !stored.deleted ? stored : null;
}
