import { type Static, Type } from '@sinclair/typebox';
import { MessageReplies, PageQuery, UserIdParams, pageOf } from './common.js';
import { endpoint } from './endpoint.js';

/** The standing an instance moderator filters the accounts by. */
export const PERSON_STATES = ['active', 'suspended', 'unverified', 'moderator'] as const;
export type PersonState = (typeof PERSON_STATES)[number];

const ROLE_RULE =
  "An instance moderator acts on every report, the instance's settings and its people. The last moderator cannot " +
  'take the role from themselves (last_moderator): the first one is named by the operator (`npm run admin -- --grant`). ' +
  'Setting a state that is already set changes nothing and succeeds.';

/** Accounts listed per page of the people screen. */
export const PEOPLE_PAGE_SIZE = 20;

/**
 * `query` matches a part of the name or of the address; `state` keeps the active accounts
 * (verified, not suspended), the suspended, the unverified or the moderators.
 */
export const PeopleQuery = Type.Composite([
  PageQuery,
  Type.Object({ state: Type.Optional(Type.Union(PERSON_STATES.map((state) => Type.Literal(state)))) }),
]);
export type PeopleQuery = Static<typeof PeopleQuery>;

/** One account of the instance as its moderators see it: its address too. */
export const PersonItem = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  email: Type.Union([Type.String(), Type.Null()], { description: 'The account\'s address; null when it has none' }),
  verified: Type.Boolean({ description: 'The address was confirmed' }),
  suspended: Type.Boolean({ description: 'Suspended by a moderator: no sign-in, its content hidden' }),
  moderator: Type.Boolean({ description: 'An instance moderator' }),
  createdAt: Type.Number({ description: 'When the account was made (epoch ms)' }),
});
export type PersonItem = Static<typeof PersonItem>;

export const PeopleReply = pageOf('people', PersonItem);
export type PeopleReply = Static<typeof PeopleReply>;

/** The instance's accounts, for its moderators: the list, and the moderator role (suspension is under /reports). */
export const peopleApi = {
  list: endpoint({
    method: 'GET',
    path: '/people',
    summary: "The instance's own accounts, newest first, by a part of the name or address and by standing (instance moderators)",
    query: PeopleQuery,
    replies: { 200: PeopleReply },
    errors: ['moderators_only'],
  }),
  grantModerator: endpoint({
    method: 'PUT',
    path: '/people/:userId/moderator',
    summary: 'Make an account an instance moderator (instance moderators)',
    description: ROLE_RULE,
    params: UserIdParams,
    replies: MessageReplies,
    errors: ['moderators_only', 'user_not_found'],
  }),
  revokeModerator: endpoint({
    method: 'DELETE',
    path: '/people/:userId/moderator',
    summary: 'Take the moderator role back from an account (instance moderators)',
    description: ROLE_RULE,
    params: UserIdParams,
    replies: MessageReplies,
    errors: ['moderators_only', 'user_not_found', 'last_moderator'],
  }),
} as const;
