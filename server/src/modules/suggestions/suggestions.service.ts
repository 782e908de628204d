import { LIMITS } from '#core/limits';
import type { GroupSuggestionsReply, UserSuggestionsReply } from '#core/api/suggestions';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { toGroupListItem, toUserRef } from '../profiles/profiles.mapper.js';
import * as repo from './suggestions.repository.js';

/** What an account with nothing to read yet is offered: accounts to follow, public groups to join. */

export async function suggestUsers(ctx: ServiceContext, viewer: Viewer): Promise<UserSuggestionsReply> {
  const rows = await repo.suggestedUsers(ctx.db, viewer.id, LIMITS.followSuggestions);
  return { users: rows.map((row) => ({ ...toUserRef(row), followers: row.followers })) };
}

export async function suggestGroups(ctx: ServiceContext, viewer: Viewer): Promise<GroupSuggestionsReply> {
  const rows = await repo.suggestedGroups(ctx.db, viewer.id, LIMITS.followSuggestions);
  return { groups: rows.map((row) => ({ ...toGroupListItem(row), members: row.members })) };
}
