import { Link, isActor } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { RemoteOrigin } from '#core/api/common';
import { LIMITS } from '#core/limits';
import { remoteNameOf, webUrlOf } from '#core/remote-names';
import { foldForSearch } from '#core/text';
import { isUniqueViolation, newTransaction } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { clipText, htmlToText } from './remote-text.js';

/**
 * The local account a remote actor is shown as: its posts, comments and likes are rows by this
 * account, so every list, count, block, mute and suspension treats it as it treats anyone. The name is
 * the actor's handle without its leading `@` (`bob@other.example`): a local name can never hold an
 * `@`, so it never collides with one, and the `@` is how the app tells a remote account apart. The
 * account has no address, password or Google link, so nobody can sign in as it, and it is not
 * "verified", so it is never listed as a local profile (sitemap, suggestions, the fediverse's own
 * actors).
 */

export interface RemoteActorInfo {
  /** The actor's IRI. */
  id: string;
  inbox: string;
  sharedInbox: string | null;
  /** `@name@host`. */
  handle: string;
  /** Its page on its own server. */
  url: string | null;
  bio: string;
}

/** The name of a remote account: its handle without the leading `@`. */
export const remoteAccountName = (handle: string) => handle.replace(/^@/, '');

/** Whether a username is a remote account's (`name@host`). */
export const isRemoteAccountName = (username: string) => remoteNameOf(username) !== null;

/**
 * Stores what was read of a remote actor and returns the id of the account standing for it, made
 * the first time. The handle and bio follow the actor's latest document.
 */
export async function remoteAccountFor(db: Executor, actor: RemoteActorInfo, now: number): Promise<string> {
  const domain = new URL(actor.id).hostname.toLowerCase();
  const username = remoteAccountName(actor.handle);
  const known = await db.selectFrom('remote_actors').select('user_id').where('id', '=', actor.id).executeTakeFirst();
  let userId = known?.user_id ?? null;
  if (userId) {
    await db
      .updateTable('users')
      .set({ username, username_lower: username.toLowerCase(), bio: actor.bio, search_text: foldForSearch(username) })
      .where('id', '=', userId)
      .execute();
  } else {
    userId = newId(now);
    await db
      .insertInto('users')
      .values({
        id: userId,
        username,
        username_lower: username.toLowerCase(),
        username_skeleton: null,
        email: null,
        password_hash: null,
        google_sub: null,
        bio: actor.bio,
        search_text: foldForSearch(username),
        created_at: now,
      })
      .execute();
  }
  const row = { inbox: actor.inbox, shared_inbox: actor.sharedInbox, handle: actor.handle, url: actor.url, domain, user_id: userId, fetched_at: now };
  await db
    .insertInto('remote_actors')
    .values({ id: actor.id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  return userId;
}

const href = (value: URL | Link | null | undefined): string | null => (value instanceof URL ? value.href : (value?.href?.href ?? null));
const text = (value: { toString(): string } | null | undefined) => (value == null ? '' : value.toString());

/** What an account keeps of an actor's document; null for a document that is not the actor's own. */
function actorInfo(actor: unknown, actorId: URL): RemoteActorInfo | null {
  if (!isActor(actor) || actor.id?.href !== actorId.href || !actor.inboxId) return null;
  const name = actor.preferredUsername ? text(actor.preferredUsername) : null;
  if (!name) return null;
  return {
    id: actorId.href,
    inbox: actor.inboxId.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    handle: `@${name}@${actorId.host}`,
    url: href(actor.url),
    bio: clipText(htmlToText(text(actor.summary)), LIMITS.bioMaxLength),
  };
}

/**
 * Stores an actor's document read from its server as the account standing for it, made the first
 * time: what an incoming activity of an unknown actor, an Update of an actor by itself and a
 * refresh of a known one (remote-refresh.ts) all do. Null for a document that is not that actor's
 * own, or whose name another actor holds.
 */
export async function saveActorDocument(app: FastifyInstance, document: unknown, actorId: URL): Promise<string | null> {
  const info = actorInfo(document, actorId);
  if (!info) return null;
  try {
    return await newTransaction(app.db, (trx) => remoteAccountFor(trx, info, Date.now()));
  } catch (err) {
    // Another delivery made the account meanwhile (or another actor holds the name: then none).
    if (!isUniqueViolation(err)) throw err;
    return accountOfRemoteActor(app.db, info.id);
  }
}

/**
 * Where remote content comes from, as replies carry it: the host of its ActivityPub id (the server
 * that holds it) and its page there. Null for what was made here, which has no such id.
 */
export function remoteOriginOf(apId: string | null, url: string | null): RemoteOrigin | null {
  if (!apId) return null;
  try {
    return { host: new URL(apId).host, url: webUrlOf(url) };
  } catch {
    return null;
  }
}

/** The remote actor an account stands for, when it is a remote account. */
export async function remoteActorOfAccount(db: Executor, userId: string) {
  return db
    .selectFrom('remote_actors')
    .select(['id', 'inbox', 'shared_inbox', 'handle', 'url', 'domain'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The account standing for a remote actor, when it has one. */
export async function accountOfRemoteActor(db: Executor, actorId: string): Promise<string | null> {
  const row = await db.selectFrom('remote_actors').select('user_id').where('id', '=', actorId).executeTakeFirst();
  return row?.user_id ?? null;
}
