import { type Static, Type } from '@sinclair/typebox';
import { LIMITS } from '../limits.js';
import { Id, MessageReplies, Nullable, moderatorsChange, moderatorsList, pageOf, pageEntry } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';

/**
 * How new accounts come in: anyone signs up (`open`), a sign-up gives a reason and waits for a
 * moderator's approval (`approval`), a sign-up needs an invite link (`invitation`), or nobody signs
 * up (`closed`).
 */
export const REGISTRATION_MODES = ['open', 'approval', 'invitation', 'closed'] as const satisfies readonly RegistrationSettings['mode'][];
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export const isRegistrationMode = (value: unknown): value is RegistrationMode =>
  typeof value === 'string' && (REGISTRATION_MODES as readonly string[]).includes(value);

/** The instance's registration: its mode, and whether members (not only moderators) may make invite links. */
export const RegistrationSettings = Type.Object({
  mode: Type.Union([Type.Literal('open'), Type.Literal('approval'), Type.Literal('invitation'), Type.Literal('closed')]),
  membersInvite: Type.Boolean(),
});
export type RegistrationSettings = Static<typeof RegistrationSettings>;

/** Applications (sign-ups waiting for approval) and invite links listed per page. */
export const REGISTRATION_PAGE_SIZE = 20;

/** What both lists' items have: their id, and when they were made (epoch ms). */
const Made = { _id: Type.String(), createdAt: Type.Number() };

/**
 * One sign-up waiting for a moderator: `_id` is the account's id; `verified` says whether its
 * address was confirmed yet.
 */
export const ApplicationItem = Type.Object({ ...Made, username: Type.String(), email: Nullable(Type.String()), verified: Type.Boolean(), reason: Type.String() });
export type ApplicationItem = Static<typeof ApplicationItem>;
export const ApplicationsReply = pageOf('applications', ApplicationItem);
export type ApplicationsReply = Static<typeof ApplicationsReply>;

export const APPLICATION_DECISIONS = ['approve', 'refuse'] as const;
export type ApplicationDecision = (typeof APPLICATION_DECISIONS)[number];
export const ApplicationDecisionBody = Type.Object({ decision: Type.Union([Type.Literal('approve'), Type.Literal('refuse')]) });
export const ApplicationParams = Type.Object({ userId: Id });

/** One invite link of its maker: the code goes in `/signup?invite=<code>`. */
export const InviteItem = Type.Object({ ...Made, code: Type.String(), maxUses: Type.Integer(), uses: Type.Integer(), expiresAt: Type.Number() });
export type InviteItem = Static<typeof InviteItem>;
export const InvitesReply = pageOf('invites', InviteItem);
export type InvitesReply = Static<typeof InvitesReply>;

/** A new invite link: how many sign-ups it admits and for how many days. */
export const NewInviteBody = Type.Object({
  maxUses: Type.Integer({ minimum: 1, maximum: LIMITS.inviteMaxUses }),
  days: Type.Integer({ minimum: 1, maximum: LIMITS.inviteMaxDays }),
});
export type NewInviteBody = Static<typeof NewInviteBody>;
export const InviteParams = Type.Object({ inviteId: Id });

/** Whether an invite can still admit someone: not used up, not expired. */
export const inviteUsable = (invite: Pick<InviteItem, 'uses' | 'maxUses' | 'expiresAt'>, now: number = Date.now()): boolean =>
  invite.uses < invite.maxUses && invite.expiresAt > now;

/** The path of the sign-up screen an invite link opens. */
export const invitePath = (code: string) => `/signup?invite=${encodeURIComponent(code)}`;

/** The registration calls of the API (see endpoint.ts for how an entry is read). */
export const registrationApi = {
  settings: plainEntry('GET', '/registration', 'How new accounts come in: the registration mode, and whether members may make invite links', RegistrationSettings),
  update: endpoint({
    method: 'PUT',
    path: '/registration',
    summary: 'Set the registration mode and whether members may make invite links (instance moderators)',
    body: RegistrationSettings,
    ...moderatorsChange('invalid_registration_settings'),
  }),
  applications: moderatorsList('/registration/applications', 'Sign-ups waiting for approval, oldest first (instance moderators)', ApplicationsReply),
  decide: endpoint({
    method: 'POST',
    path: '/registration/applications/:userId',
    summary: 'Approve or refuse a sign-up; the applicant is told by mail (instance moderators)',
    params: ApplicationParams,
    body: ApplicationDecisionBody,
    ...moderatorsChange('application_not_found'),
  }),
  invites: endpoint({
    method: 'GET',
    path: '/registration/invites',
    summary: "The caller's invite links, newest first",
    ...pageEntry(InvitesReply),
    errors: [],
  }),
  createInvite: endpoint({
    method: 'POST',
    path: '/registration/invites',
    summary: 'Make an invite link (instance moderators, and members when the instance lets them)',
    description: `At most ${LIMITS.inviteMaxUses} sign-ups and ${LIMITS.inviteMaxDays} days; an account holds at most ${LIMITS.openInvitesPerAccount} links that can still admit someone (invite_limit).`,
    body: NewInviteBody,
    replies: { 201: InviteItem },
    invalidKey: 'invalid_invite_settings',
    errors: ['invites_not_allowed', 'invalid_invite_settings', 'invite_limit'],
  }),
  revokeInvite: endpoint({
    method: 'DELETE',
    path: '/registration/invites/:inviteId',
    summary: 'Revoke an invite link (its maker, or an instance moderator)',
    params: InviteParams,
    replies: MessageReplies,
    invalidKey: 'invite_not_found',
    errors: ['invite_not_found'],
  }),
} as const;
