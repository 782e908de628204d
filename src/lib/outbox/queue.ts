import { type DraftImage, type KruhDb, type OutboxRow, type OutboxRowOf } from '../db/db';
import { withRoom } from '../db/prune';

/**
 * What every kind's queue function shares: a fresh row, its write (with room made on a full disk)
 * and the folding of toggles. The drain is not imported here, since it knows every kind and every
 * kind queues through this file: the drain hands in how sending starts when it loads.
 */

export function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let startSending: () => unknown = () => {};

/** Called by the drain's module when it loads: what a queued item starts. */
export function sendQueuedWith(start: () => unknown): void {
  startSending = start;
}

/** Starts sending what was just queued (the drain runs it now, or right after the one under way). */
export function sendQueued(): void {
  void startSending();
}

/** The fields of a row just queued: its Idempotency-Key, made once and sent with every attempt. */
export function freshRow(draftKey?: string) {
  return {
    idempotencyKey: newId(),
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: Date.now(),
    clientId: newId(),
    ...(draftKey ? { draftKey } : {}),
  };
}

/** What an editor queues: the item, its images and the draft it was written in. */
export type QueueInput<P> = P & { images: DraftImage[]; draftKey?: string };

/** Adds a row to the outbox and starts sending. */
export async function enqueue(row: OutboxRow, db: KruhDb): Promise<OutboxRow> {
  // Storage may be full of cache: room is made for what must not be lost.
  row.seq = await withRoom(db, () => db.outbox.add(row));
  sendQueued();
  return row;
}

/** The rows that set one state, where only the last wanted state matters (a like, a block, the language). */
type ToggleRow = OutboxRowOf<'like' | 'safety' | 'language'>;
type StateOf<R extends ToggleRow> = R['payload']['from'];

/** A change of one state and how its rows hold it. */
export interface Toggle<R extends ToggleRow> {
  kind: R['kind'];
  target: string;
  /** The payload's field that holds the state (beside `from`, the server's state it changes). */
  state: Exclude<keyof R['payload'], 'from'>;
  /** The server's state as last seen, when no row of the target exists. */
  known: StateOf<R>;
  /** What a row carries but `from`: its `state` field is the state wanted. */
  change: Omit<R['payload'], 'from'>;
}

/**
 * Folds a change of a toggle into the outbox: an unsent row of the same target takes the new
 * state, or goes when the state is back to the server's; otherwise a row is added, unless the
 * server already holds the state (the one being sent, when a send is under way). Runs inside the
 * caller's transaction.
 */
export async function foldToggle<R extends ToggleRow>(db: KruhDb, toggle: Toggle<R>): Promise<void> {
  const stateOf = (payload: R['payload'] | Toggle<R>['change']) => payload[toggle.state] as StateOf<R>;
  const wanted = stateOf(toggle.change);
  const payload = (serverState: StateOf<R>) => ({ ...toggle.change, from: serverState }) as R['payload'];
  const rows = (await db.outbox.where('target').equals(toggle.target).toArray()).filter((r): r is R => r.kind === toggle.kind);
  const open = rows.find((r) => r.status !== 'sending');
  if (open) {
    if (open.payload.from === wanted) await db.outbox.delete(open.seq!);
    else await db.outbox.update(open.seq!, { payload: payload(open.payload.from) });
    return;
  }
  const inFlight = rows[0];
  const serverState = inFlight ? stateOf(inFlight.payload) : toggle.known;
  if (serverState === wanted) return;
  const row = { ...freshRow(), kind: toggle.kind, target: toggle.target, payload: payload(serverState), images: [] };
  await db.outbox.add(row as ToggleRow);
}
