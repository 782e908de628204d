import { type UseStore, createStore, del, get, set } from 'idb-keyval';
import type { DraftImage } from '../db/db';

/**
 * Sharing into the app from another one (the manifest's share target): the system posts the
 * shared text, link and images to SHARE_PATH, the service worker keeps them here and opens the
 * composer, which takes them into its draft. Kept outside the account's database because the
 * worker cannot know who is logged in, and the share must wait through a login if need be.
 */
export const SHARE_PATH = 'share';
/** The composer's query flag that says a share is waiting for it. */
export const SHARED_PARAM = 'shared';
/** The form fields the manifest names (title, text, url, and the files). */
export const SHARE_FIELDS = { title: 'title', text: 'text', url: 'url', files: 'images' } as const;
/** More files than any post takes are not kept: the composer says how many fit. */
const MAX_KEPT_FILES = 10;

export interface SharedItem {
  text: string;
  images: DraftImage[];
}

const SHARE_KEY = 'pending';
let store: UseStore | null = null;
// Opened on first use: importing this module must not open a database.
const shareStore = (): UseStore => (store ??= createStore('kruh-share', 'share'));

/**
 * One text from what apps send: a title, a text and a link, each optional. Many apps put the link
 * inside the text too, and a title that repeats the text says nothing: neither is written twice.
 */
export function sharedText(title: string, text: string, url: string): string {
  const parts = [title, text, url].map((part) => part.trim()).filter(Boolean);
  // A part inside another is dropped; of two equal parts the first stays.
  const repeated = (part: string, i: number) => parts.some((other, j) => j !== i && other.includes(part) && (other !== part || j < i));
  return parts.filter((part, i) => !repeated(part, i)).join('\n');
}

/** What a share's form holds, as the composer will take it. */
export function readShareForm(form: FormData): SharedItem {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const images = form
    .getAll(SHARE_FIELDS.files)
    .filter((value): value is File => typeof value !== 'string' && value.size > 0)
    .slice(0, MAX_KEPT_FILES)
    .map((file) => ({ blob: file, name: file.name }));
  return { text: sharedText(field(SHARE_FIELDS.title), field(SHARE_FIELDS.text), field(SHARE_FIELDS.url)), images };
}

/** Keeps a share for the composer (a newer share replaces one never opened). */
export function keepShare(item: SharedItem): Promise<void> {
  return set(SHARE_KEY, item, shareStore());
}

/** The waiting share, removed as it is taken, so it lands in one draft only. */
export async function takeShare(): Promise<SharedItem | undefined> {
  const item = await get<SharedItem>(SHARE_KEY, shareStore());
  if (item) await del(SHARE_KEY, shareStore());
  return item;
}
