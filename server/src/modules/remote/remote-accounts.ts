import { createHash } from 'node:crypto';
import { type Actor, Group, Link, isActor } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '#core/limits';
import { remoteNameOf } from '#core/remote-names';
import { withoutHidingCharacters } from '#core/text';
import { validateRemoteUsername } from '#core/validation';
import { isUniqueViolation, newTransaction } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { hostOf, hostWithPortOf, normalizeHandle } from '../../lib/hosts.js';
import { newId } from '../../lib/ids.js';
import { insertRemoteUser, renameRemoteUser } from '../auth/auth.service.js';
import * as repo from './remote.repository.js';
import { clipText, htmlToText } from './remote-text.js';
import { webFinger } from './webfinger.js';

/**
 * The local account a remote actor is shown as: its posts, comments and likes are rows by this
 * account, so every list, count, block, mute and suspension treats it as it treats anyone. The name is
 * the actor's handle without its leading `@` (`bob@other.example`): a local name can never hold an
 * `@`, so it never collides with one, and the `@` is how the app tells a remote account apart. The
 * account has no address, password or Google link, so nobody can sign in as it, and it is not
 * "verified", so it is never listed as a local profile (sitemap, suggestions, the fediverse's own
 * actors).
 *
 * An actor's name must keep the rules of remote names (validateRemoteUsername): one that does not
 * (an `@`, a space, a character that hides or turns text around) is refused, the actor not stored
 * and what it sent dropped, for a name is shown beside this instance's own people in every list.
 * Its bio is kept without such characters. One name on a server is one account here, as Mastodon
 * keys accounts by name and host: when a second actor of a server claims a name another holds, the
 * server's WebFinger says whose it is. The one it names gets the name; the other keeps its account,
 * and what it wrote, under a name no actor can claim (`bob~1a2b3c4d@host`), or, new here, is not
 * stored at all.
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
  /** A Group: a community local users may post into. */
  group?: boolean;
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
  const domain = hostOf(actor.id);
  const handle = normalizeHandle(actor.handle);
  const username = remoteAccountName(handle);
  let userId = await repo.accountOfRemoteActor(db, actor.id);
  if (userId) {
    await renameRemoteUser(db, userId, username, actor.bio);
  } else {
    userId = newId(now);
    await insertRemoteUser(db, { id: userId, username, bio: actor.bio, createdAt: now });
  }
  await repo.upsertRemoteActor(db, actor.id, { inbox: actor.inbox, shared_inbox: actor.sharedInbox, handle, url: actor.url, domain, user_id: userId, fetched_at: now, is_group: actor.group ? 1 : 0 });
  return userId;
}

const href = (value: URL | Link | null | undefined): string | null => (value instanceof URL ? value.href : (value?.href?.href ?? null));
const text = (value: { toString(): string } | null | undefined) => (value == null ? '' : value.toString());

/** The handle an actor's document gives it, `@name@host`; null when it names itself not or against the rules of remote names. */
export function handleOf(actor: Actor): string | null {
  const name = actor.preferredUsername?.toString();
  if (!actor.id || name === undefined || validateRemoteUsername(name) !== null) return null;
  return `@${name}@${hostWithPortOf(actor.id)}`;
}

/** An actor's summary as the bio of its account: plain text, nothing hiding or turning text around, within the bio's limit. */
const bioOf = (summary: string) => clipText(withoutHidingCharacters(htmlToText(summary)), LIMITS.bioMaxLength);

/** What an account keeps of an actor's document; null for a document that is not the actor's own, or names it against the rules. */
export function actorInfo(actor: unknown, actorId: URL): RemoteActorInfo | null {
  if (!isActor(actor) || actor.id?.href !== actorId.href || !actor.inboxId) return null;
  const handle = handleOf(actor);
  if (!handle) return null;
  return {
    id: actorId.href,
    inbox: actor.inboxId.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
    handle,
    url: href(actor.url),
    bio: bioOf(text(actor.summary)),
    group: actor instanceof Group,
  };
}

/** The account holding a remote account's name, and the actor it stands for (none for an account left without one). */
type NameHolder = NonNullable<Awaited<ReturnType<typeof repo.accountNamed>>>;

/** Whether the server of the account's name names this actor for it when asked by WebFinger; no for no answer. */
async function webFingerNames(app: FastifyInstance, username: string, actorId: string): Promise<boolean> {
  const handle = remoteNameOf(username);
  if (!handle) return false;
  try {
    return (await webFinger(app, handle, AbortSignal.timeout(app.config.federationLookupTimeoutMs))) === actorId;
  } catch {
    return false;
  }
}

/**
 * Moves an account off a name its server gave another actor: to the name with a mark of its own
 * actor (`bob~1a2b3c4d@host`), which no actor can claim (a `~` breaks the rules of remote names).
 */
async function stepAside(db: Executor, holder: NameHolder): Promise<void> {
  const parts = remoteNameOf(holder.username);
  if (!parts) return;
  const mark = createHash('sha256').update(holder.actor_id ?? holder.id).digest('hex').slice(0, 8);
  const username = `${parts.name}~${mark}@${parts.host}`;
  await renameRemoteUser(db, holder.id, username);
  if (holder.actor_id) await repo.setRemoteActorHandle(db, holder.actor_id, `@${username}`);
}

/**
 * Stores an actor read from its server as the account standing for it (remoteAccountFor), one
 * account per name: when another actor's account holds the name, it passes to this one only if
 * WebFinger names this one for it (`webFingered`: it just did), the holder stepping aside; else a
 * new actor is refused (null) and a known one keeps its name. Null too when another delivery made
 * the account meanwhile and it is gone again.
 */
export async function storeRemoteActor(app: FastifyInstance, info: RemoteActorInfo, webFingered = false): Promise<string | null> {
  const holder = await repo.accountNamed(app.db, remoteAccountName(normalizeHandle(info.handle)));
  let stored = info;
  let displaced: NameHolder | null = null;
  if (holder && holder.actor_id !== info.id) {
    if (webFingered || (await webFingerNames(app, holder.username, info.id))) {
      displaced = holder;
    } else {
      const known = await repo.knownRemoteActor(app.db, info.id);
      if (!known?.user_id || !known.handle) return null;
      stored = { ...info, handle: known.handle };
    }
  }
  try {
    return await newTransaction(app.db, async (trx) => {
      if (displaced) await stepAside(trx, displaced);
      return remoteAccountFor(trx, stored, Date.now());
    });
  } catch (err) {
    // Another delivery made the account meanwhile (or took the name: then none).
    if (!isUniqueViolation(err)) throw err;
    return repo.accountOfRemoteActor(app.db, info.id);
  }
}

/**
 * Stores an actor's document read from its server as the account standing for it, made the first
 * time: what an incoming activity of an unknown actor, an Update of an actor by itself and a
 * refresh of a known one (remote-refresh.ts) all do. Null for a document that is not that actor's
 * own, that names it against the rules, or whose name another actor holds (storeRemoteActor).
 */
export async function saveActorDocument(app: FastifyInstance, document: unknown, actorId: URL): Promise<string | null> {
  const info = actorInfo(document, actorId);
  return info ? storeRemoteActor(app, info) : null;
}

export { accountOfRemoteActor, remoteActorOfAccount, remoteActorStanding } from './remote.repository.js';
