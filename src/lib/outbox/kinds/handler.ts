import type { Table } from 'dexie';
import type { ErrorKey } from '#core/errors';
import { mediaApi } from '#core/api/media';
import { LIMITS } from '#core/limits';
import { ApiError, type CallOptions, callApi, isRetryable, uploadErrorOf } from '../../api/client';
import { askServer, typedMentions } from '../../mentions/typed-mentions';
import type { DraftImage, KruhDb, OutboxRow, OutboxRowOf, Slot } from '../../db/db';
import { returnToDrafts } from '../../drafts/store';
import { toast } from '../../toast';

export type { OutboxRowOf };

/**
 * What the drain asks of one kind of item. The drain owns the order, the retries and the lock; a
 * kind's module (`kinds/<kind>.ts`) owns everything else about it: its payload (added to
 * `OutboxKinds`), its queue function and target key, this handler (the call, what its answer
 * changes in the local database, what a refusal gives back) and how its waiting rows show.
 */
export interface OutboxHandler<R extends OutboxRow = OutboxRow> {
  /**
   * Sends the item (with its Idempotency-Key, so a resend after a lost answer is applied once) and
   * stores the answer. Throws what the call threw; the drain decides whether that is retried.
   */
  send(db: KruhDb, row: R): Promise<void>;
  /** The error shown for a refusal whose answer names no reason. */
  refusedFallback: ErrorKey;
  /**
   * Gives a refused item back to its author. Runs in the transaction (over every table) that
   * removes the row, so the item is never both queued and returned.
   */
  giveBack(db: KruhDb, row: R, reason: ErrorKey): Promise<void>;
}

/** One handler per kind: a kind without its line in the registry (`handlers.ts`) fails to compile. */
export type OutboxHandlers = { [K in OutboxRow['kind']]: OutboxHandler<OutboxRowOf<K>> };

/**
 * Keeps what the server answered a creation with, unless the app already holds the item: a copy
 * read from the server since (a list fetched after a reload) is at least as new, and a creation
 * sent again under its key is answered with the item as it was made, its replies and likes since
 * missing. Call inside the transaction that records the creation.
 */
export async function keepCreated<R extends { _id: string; cachedAt: number }>(table: Table<R, string>, item: Omit<R, 'cachedAt'>): Promise<void> {
  if ((await table.get(item._id)) === undefined) await table.put({ ...item, cachedAt: Date.now() } as R);
}

/** The item's Idempotency-Key, made when it was queued and sent with every attempt. */
export const idempotent = (row: OutboxRow): CallOptions => ({ headers: { 'Idempotency-Key': row.idempotencyKey } });

/** A slot as the API takes it: the picked id, else the typed name; empty slots are dropped. */
export const slotValues = (slots: Slot[]) =>
  slots.map((s) => s.id ?? s.query.trim()).filter((v) => v !== '');

/**
 * The mentions as the API takes them, with the accounts the text names as `@name` that the
 * composer could not find (written offline): found now, within the limit of mentions; a name past
 * the limit or matching no account stays plain text. A failed look-up fails the send, to be
 * retried with it.
 */
export async function mentionValues(db: KruhDb, text: string, slots: Slot[]): Promise<string[]> {
  const chosen = slotValues(slots);
  if (chosen.length >= LIMITS.mentionsPerPost) return chosen;
  const typed = await typedMentions(db, text, slots.filter((s) => s.query.trim() !== ''), askServer);
  return [...chosen, ...slotValues(typed)].slice(0, Math.max(chosen.length, LIMITS.mentionsPerPost));
}

function imageForm(image: DraftImage, index: number, id: string): FormData {
  const form = new FormData();
  form.append('index', String(index));
  form.append('id', id);
  // The description goes in the same request as its image, so the two are stored together.
  if (image.alt?.trim()) form.append('alt', image.alt);
  form.append('image', image.blob, image.name || `image${index}`);
  return form;
}

/**
 * Uploads the images of a created item not uploaded yet, counting them on the row so a resend
 * resumes at the first one missing. Each uploaded image goes into the stored item at once (the
 * item stopped being pending when it was created, so its local image is no longer shown); a
 * refused image is reported and skipped.
 */
export async function uploadImages(db: KruhDb, row: OutboxRowOf<'post' | 'comment'>, ownerId: string): Promise<void> {
  // Posts and comments keep their images alike; one table of either shape.
  const table = (row.kind === 'post' ? db.posts : db.comments) as Table<{ _id: string; media?: string[]; alts?: string[] }, string>;
  for (let index = row.uploaded ?? 0; index < row.images.length; index++) {
    let url: string | undefined;
    try {
      ({ url } = await callApi(mediaApi.uploadImage, {}, { formData: imageForm(row.images[index]!, index, ownerId) }));
    } catch (err) {
      if (!(err instanceof ApiError) || isRetryable(err) || err.status === 401) throw err;
      toast.error(uploadErrorOf(err));
    }
    await db.transaction('rw', db.outbox, table, async () => {
      await db.outbox.update(row.seq!, { uploaded: index + 1 });
      if (url) {
        await table.where('_id').equals(ownerId).modify((item) => {
          const media = [...(item.media ?? [])];
          media[index] = url;
          item.media = media.filter(Boolean);
          // The description the server now holds with the image, in the same place as its URL.
          const alts = Array.from({ length: item.media.length }, (_, i) => item.alts?.[i] ?? '');
          alts[item.media.indexOf(url)] = row.images[index]!.alt?.trim() ?? '';
          item.alts = alts;
        });
      }
    });
  }
}

/**
 * Sends a post or a comment: created once, then its images. `create` makes it on the server and,
 * in one transaction, keeps its id on the row (createdId, uploaded 0) with whatever else it stores,
 * so a resend after a crash uploads the images to the right item. Answers the server id.
 */
export async function createThenUpload(
  db: KruhDb,
  row: OutboxRowOf<'post' | 'comment'>,
  create: () => Promise<string>,
): Promise<string> {
  let id = row.createdId;
  if (!id) {
    id = await create();
    row = { ...row, createdId: id, uploaded: 0 };
  }
  await uploadImages(db, row, id);
  return id;
}

/**
 * Puts a refused post or comment back into the editor it was written in, with the reason. One
 * already created on the server is not returned: that would post it twice.
 */
export async function returnAsDraft(
  db: KruhDb,
  row: OutboxRowOf<'post' | 'comment'>,
  draftKey: string,
  groups: Slot[],
  reason: ErrorKey,
): Promise<void> {
  if (row.createdId) return;
  await returnToDrafts(
    row.draftKey ?? draftKey,
    {
      text: row.payload.text,
      mentions: row.payload.mentions,
      groups,
      images: row.images,
      ...('contentWarning' in row.payload && row.payload.contentWarning !== undefined ? { contentWarning: row.payload.contentWarning } : {}),
      returnedError: reason,
    },
    row.clientId,
    db,
  );
}

/**
 * What a pending post or comment shares with its server counterpart as its author sees it: by
 * the session's user, not liked or answered yet, its mentions as typed.
 */
export function pendingItem(row: OutboxRowOf<'post' | 'comment'>) {
  return {
    _id: row.clientId,
    text: row.payload.text,
    createdAt: row.createdAt,
    likes: 0,
    liked: false,
    comments: 0,
    mentions: row.payload.mentions.map((m) => ({ _id: m.id, username: m.query })),
    itsme: true,
    images: row.images.length,
    media: [],
    alts: row.images.map((image) => image.alt?.trim() ?? ''),
  };
}
