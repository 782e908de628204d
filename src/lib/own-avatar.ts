import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from './db/useDb';
import { useSession } from './session';
import { readStoredAccount } from './stored-account';

/** The `?v=` of a versioned avatar URL (0 for a plain address). */
export function avatarVersion(url: string | null | undefined): number {
  if (!url) return 0;
  const v = /[?&]v=(\d+)/.exec(url)?.[1];
  return v ? Number(v) : 0;
}

/**
 * The newest known URL of an avatar. A user's own picture changes under a new version the moment
 * an upload is accepted, while posts, comments and lists stored before keep the old one: for the
 * signed-in user's own avatar the stored account's URL wins when it is newer, so the new picture
 * shows everywhere at once, without a reload or a refetch of every list.
 */
export function useNewestAvatarUrl(kind: 'pfp' | 'gp', id: string | null | undefined, url: string | null | undefined): string | null | undefined {
  const db = useDb();
  const { id: me } = useSession();
  const mine = kind === 'pfp' && !!id && id === me;
  const own = useLiveQuery(async () => (mine ? (await readStoredAccount(db))?.pfpUrl : undefined), [db, mine]);
  return own && avatarVersion(own) > avatarVersion(url) ? own : url;
}
