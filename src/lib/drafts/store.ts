import { type Draft, type KruhDb, getDb } from '../db/db';

// Drafts as stored, free of React: the outbox gives refused items back here, in the service
// worker too. The hooks that edit them are in drafts.ts.

/** Draft keys: the composer (per reply target and preset group) and each comment box. */
export const draftKeys = {
  post: (context: { rep?: string | null; g?: string | null } = {}) =>
    `post${context.rep ? `:rep=${context.rep}` : ''}${context.g ? `:g=${context.g}` : ''}`,
  comment: (parentId: string) => `comment:${parentId}`,
  /** The editor of an existing post's text. */
  edit: (postId: string) => `edit:${postId}`,
};

export type DraftContent = Omit<Draft, 'key' | 'updatedAt'>;

export const emptyDraft = (): DraftContent => ({ text: '', mentions: [], groups: [], images: [] });

export function isEmptyDraft(d: Pick<Draft, 'text' | 'mentions' | 'groups' | 'images' | 'contentWarning'>): boolean {
  return (
    d.text.trim() === '' &&
    d.mentions.length === 0 &&
    d.groups.every((g) => g.locked) &&
    d.images.length === 0 &&
    !d.contentWarning?.trim()
  );
}

export async function loadDraft(key: string, db: KruhDb = getDb()): Promise<Draft | undefined> {
  return db.drafts.get(key);
}

export async function saveDraft(key: string, content: DraftContent, db: KruhDb = getDb()): Promise<void> {
  if (isEmptyDraft(content) && !content.returnedError) {
    await db.drafts.delete(key);
    return;
  }
  await db.drafts.put({ ...content, key, updatedAt: Date.now() });
}

export async function clearDraft(key: string, db: KruhDb = getDb()): Promise<void> {
  await db.drafts.delete(key);
}

/**
 * Puts a refused item back where it was written. When that draft already holds new work, the
 * returned one is kept beside it (key suffixed with the item's id), never over it.
 */
export async function returnToDrafts(key: string, content: DraftContent, suffix: string, db: KruhDb = getDb()): Promise<string> {
  return db.transaction('rw', db.drafts, async () => {
    const existing = await db.drafts.get(key);
    const target = existing && !isEmptyDraft(existing) ? `${key}#${suffix}` : key;
    await db.drafts.put({ ...content, key: target, updatedAt: Date.now() });
    return target;
  });
}
