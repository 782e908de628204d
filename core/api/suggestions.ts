import { type Static, Type } from '@sinclair/typebox';
import { GroupRefProperties, UserRefProperties, listOf } from './common.js';
import { endpoint } from './endpoint.js';

/** An account worth following, as a user list shows it (pfp is also the id the follow call takes). */
export const SuggestedUser = Type.Object({ ...UserRefProperties, followers: Type.Integer() });
export type SuggestedUser = Static<typeof SuggestedUser>;

/** A public group worth joining, as a group list shows it. */
export const SuggestedGroup = Type.Object({ ...GroupRefProperties, members: Type.Integer() });
export type SuggestedGroup = Static<typeof SuggestedGroup>;

export const UserSuggestionsReply = listOf('users', SuggestedUser);
export type UserSuggestionsReply = Static<typeof UserSuggestionsReply>;

export const GroupSuggestionsReply = listOf('groups', SuggestedGroup);
export type GroupSuggestionsReply = Static<typeof GroupSuggestionsReply>;

/** Suggestions for an account with little to read yet (see endpoint.ts for how an entry is read). */
export const suggestionsApi = {
  users: endpoint({
    method: 'GET',
    path: '/suggestions/users',
    summary: 'A few accounts the caller may want to follow, most followed first',
    description:
      'Leaves out the caller, accounts they follow, block either way or muted, suspended and unverified ' +
      'accounts. Ties go to the account that posted last. At most LIMITS.followSuggestions.',
    replies: { 200: UserSuggestionsReply },
    errors: [],
  }),
  groups: endpoint({
    method: 'GET',
    path: '/suggestions/groups',
    summary: 'A few public groups the caller may want to join, most members first',
    description:
      'Only groups anyone may join at once: never a private group, nor one that asks for requests. Leaves out ' +
      'groups the caller is a member of or banned from. Ties go to the group posted in last. At most LIMITS.followSuggestions.',
    replies: { 200: GroupSuggestionsReply },
    errors: [],
  }),
} as const;
