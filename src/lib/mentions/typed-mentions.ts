import { searchApi } from '#core/api/search';
import { typedNamesInText } from '#core/text';
import { callApi } from '../api/client';
import type { Profile } from '#core/api/profiles';
import type { KruhDb, Slot } from '../db/db';

/**
 * A name typed into a text as `@name` mentions that account, as choosing it in a slot would. These
 * find the accounts of such names: first in the local database (profiles read, authors and mentions
 * of kept posts), so it works offline, then, for the rest, by the server's user suggestions.
 */

/** Asks the server for the account of one name: its id, null when there is none. */
export type AskAccount = (name: string) => Promise<string | null>;

const lower = (name: string) => name.toLowerCase();

/** The account of exactly this name among the server's suggestions for it (the name itself comes first). */
export const askServer: AskAccount = async (name) => {
  const found = await callApi(searchApi.suggestUsers, { query: { query: name } });
  return found.find((r) => lower(r.name) === lower(name))?._id ?? null;
};

/** Accounts of these names the local database knows, by lowercased name. */
async function knownLocally(db: KruhDb, names: string[]): Promise<Map<string, Slot>> {
  const wanted = new Set(names.map(lower));
  const known = new Map<string, Slot>();
  const note = (id: string | null | undefined, username: string) => {
    if (id && wanted.has(lower(username)) && !known.has(lower(username))) known.set(lower(username), { query: username, id });
  };
  for (const row of await db.profiles.where('username').anyOfIgnoreCase(names).toArray()) {
    const profile = row.data as Partial<Profile> | undefined;
    note(profile?._id, profile?.username ?? row.username);
  }
  if (known.size < wanted.size) {
    await db.posts.each((post) => {
      note(post.author.pfp, post.author.username);
      for (const m of post.mentions) note(m._id, m.username);
    });
  }
  return known;
}

/**
 * The mentions the text types as `@name` beyond the slots already there, for the names that are
 * accounts, in the text's order. Names the local database does not know are asked of the server by
 * `ask` (left out without it); a name matching no account stays plain text.
 */
export async function typedMentions(db: KruhDb, text: string, slots: Slot[], ask?: AskAccount): Promise<Slot[]> {
  const chosen = new Set(slots.map((s) => lower(s.query.trim())));
  const names = typedNamesInText(text).filter((name) => !chosen.has(lower(name)));
  if (names.length === 0) return [];
  const known = await knownLocally(db, names);
  if (ask) {
    const asked = await Promise.all(names.filter((name) => !known.has(lower(name))).map(async (name) => [name, await ask(name)] as const));
    for (const [name, id] of asked) if (id) known.set(lower(name), { query: name, id });
  }
  const ids = new Set<string | null>(slots.map((s) => s.id).filter((id) => id !== null));
  const found: Slot[] = [];
  for (const name of names) {
    const slot = known.get(lower(name));
    if (!slot || ids.has(slot.id)) continue;
    ids.add(slot.id);
    found.push(slot);
  }
  return found;
}
