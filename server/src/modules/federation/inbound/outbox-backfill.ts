import { type Actor, type Collection, CollectionPage, Create } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { postByApId } from '../federation.repository.js';
import { type NoteContext, isAuthor, isWriting } from './notes.js';
import { storeNote } from './store-note.js';

/** Posts an actor's outbox gives when the actor is first looked up: enough for its profile. */
export const BACKFILL_ITEMS = 20;
/**
 * Pages of the outbox read at most, and items on them: an outbox of mostly boosts and replies
 * (skipped) leads on from page to page, and an endless chain of pages must not.
 */
export const BACKFILL_PAGES = 5;
const BACKFILL_READ = 100;

/**
 * Stores the recent public posts of a remote actor's outbox, as posts of its account, so a profile
 * found by a search is not empty. Only the actor's own Creates of public, top-level Notes are taken
 * (what a follower would have been sent); nobody is told of them. The pages are read newest first,
 * each through the guarded loader and from the actor's own server only, until enough posts are
 * here or a bound is reached; a page that cannot be read ends the reading, keeping what was stored.
 */
export async function backfillOutbox(app: FastifyInstance, ctx: NoteContext, actor: Actor): Promise<void> {
  const actorId = actor.id;
  if (!actorId) return;
  const load = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  const outbox = await actor.getOutbox(load);
  if (!outbox) return;
  // Some servers put the items in the collection itself, most on pages.
  let page: Collection | null = outbox instanceof CollectionPage ? outbox : ((await outbox.getFirst(load)) ?? outbox);
  const visited = new Set<string>();
  let read = 0;
  let kept = 0;
  for (let pages = 1; page; pages++) {
    if (page.id) visited.add(page.id.href);
    for await (const item of page.getItems({ ...load, suppressError: true })) {
      if (++read > BACKFILL_READ) return;
      if ((await backfillItem(app, ctx, item, actorId)) && ++kept >= BACKFILL_ITEMS) return;
    }
    if (!(page instanceof CollectionPage)) return;
    const next = page.nextId;
    if (pages >= BACKFILL_PAGES || !next || next.origin !== actorId.origin || visited.has(next.href)) return;
    try {
      page = await page.getNext(load);
    } catch (error) {
      app.log.info({ err: error, actorId: actorId.href, page: next.href }, 'outbox page not read');
      return;
    }
  }
}

/** Stores an outbox item that is the actor's own Create of a post; whether the post is here now. */
async function backfillItem(app: FastifyInstance, ctx: NoteContext, item: unknown, actorId: URL): Promise<boolean> {
  if (!(item instanceof Create) || item.actorId?.href !== actorId.href) return false;
  const object = await item.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });
  if (!isWriting(object) || !isAuthor(object, actorId) || !object.id) return false;
  await storeNote(app, ctx, object, actorId, 'backfill', item);
  return (await postByApId(app.db, object.id.href)) !== undefined;
}
