import { remoteNameOf } from '#core/remote-names';
import type { Executor } from '../../db/schema.js';
import { forbidden } from '../../lib/app-error.js';
import * as repo from './remote-communities.repository.js';

export { addPostCommunities, communityAccountsAmong, followedCommunitiesMatching, isPostInCommunity } from './remote-communities.repository.js';

/**
 * Communities of other servers (a Lemmy community, another Kruh's public group: a `Group` actor,
 * known here as an account) are where a post may go besides the instance's own groups, as Lemmy
 * and Mastodon users expect (FEP-1b12): a post or a comment is addressed to the community and sent
 * to its inbox, and the community passes it on to its members. A local user posts only into a
 * community they follow, the follow standing for joining, as it does for a remote person posting
 * into a group here. What is said under a post the community holds (one posted into it, one it
 * passed on) goes to it too, so its members read the answers.
 */

/** A remote community a post names: its account and its name here (`name@host`). */
export interface Community {
  accountId: string;
  name: string;
}

/** Where something for a community goes: its actor, and its server's shared inbox, else its own. */
export interface CommunityActor {
  id: string;
  inbox: string;
}

/**
 * The remote communities among a post's group entries (each an account's id or its name, any
 * case), by entry; an entry naming nothing else stays what it was. An entry naming a remote account
 * that is not a community the author follows, or a remote name (`name@host`) known as no account
 * here, is refused: it would otherwise be kept as a plain tag the community never hears of.
 */
export async function communitiesNamed(db: Executor, authorId: string, entries: string[]): Promise<Map<string, Community>> {
  const found = new Map<string, Community>();
  if (entries.length === 0) return found;
  const rows = await repo.remoteAccountsNamed(db, authorId, entries);
  for (const entry of entries) {
    const row = rows.find((account) => account.id === entry) ?? rows.find((account) => account.username_lower === entry.toLowerCase());
    if (!row) {
      if (remoteNameOf(entry)) throw forbidden('not_following_community');
      continue;
    }
    if (row.suspended_at !== null) throw forbidden('remote_blocked');
    if (Number(row.is_group) === 0 || !row.followed) throw forbidden('not_following_community');
    found.set(entry, { accountId: row.id, name: row.username });
  }
  return found;
}

/**
 * The remote communities a post is in, once each: those it was posted into or whose Note named
 * them (in their order), then those that passed it on (the earliest first; only a Group's announce
 * is kept as a share). None that is suspended here.
 */
export async function communitiesOfPost(db: Executor, postId: string): Promise<CommunityActor[]> {
  const found = new Map<string, CommunityActor>();
  for (const row of await repo.communityActorsOfPost(db, postId)) if (!found.has(row.id)) found.set(row.id, { id: row.id, inbox: row.shared_inbox ?? row.inbox });
  return [...found.values()];
}

