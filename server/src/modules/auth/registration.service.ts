import { randomBytes } from 'node:crypto';
import {
  type ApplicationDecision,
  type ApplicationsReply,
  type InviteItem,
  type InvitesReply,
  type NewInviteBody,
  REGISTRATION_PAGE_SIZE,
  type RegistrationSettings,
  isRegistrationMode,
} from '#core/api/registration';
import type { PageQuery } from '#core/api/common';
import { LIMITS } from '#core/limits';
import { trimText } from '#core/text';
import { validateRegistrationReason } from '#core/validation';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/schema.js';
import { badRequest, forbidden, notFound, tooMany } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { isModerator, requireModerator } from '../../policy/moderators.js';
import { enqueueAccountMail } from './auth.emails.js';
import type { UserRecord } from './auth.records.js';
import { findUserById } from './auth.repository.js';
import * as repo from './registration.repository.js';

/**
 * How new accounts come in. The mode is a row of server_settings, written by the instance
 * moderators; until they write it, REGISTRATION_MODE is the mode. By approval, a sign-up stores its
 * reason and the account may not sign in until a moderator approves it (the applicant is told by
 * mail either way). By invitation, a sign-up takes one use of a valid invite link.
 */

/** The settings in force: the moderators' when they set them, else the deployment's REGISTRATION_MODE. */
export async function registrationSettings(db: Executor, config: Pick<Config, 'registrationMode'>): Promise<RegistrationSettings> {
  const fallback: RegistrationSettings = { mode: config.registrationMode, membersInvite: false };
  const stored = await repo.readSettingsRow(db);
  if (!stored) return fallback;
  const parsed = JSON.parse(stored) as Partial<RegistrationSettings>;
  return { mode: isRegistrationMode(parsed.mode) ? parsed.mode : fallback.mode, membersInvite: parsed.membersInvite === true };
}

/** Whether the moderators have set the mode (else REGISTRATION_MODE stands), for the start-up line. */
export async function registrationSettingsStored(db: Executor): Promise<boolean> {
  return (await repo.readSettingsRow(db)) !== undefined;
}

/** PUT /registration (instance moderators). */
export async function updateRegistration(ctx: ServiceContext, viewer: Viewer, settings: RegistrationSettings): Promise<void> {
  requireModerator(viewer);
  await repo.writeSettingsRow(ctx.db, JSON.stringify({ mode: settings.mode, membersInvite: settings.membersInvite }), Date.now());
}

/** What a sign-up brings besides its account: the reason it gives (by approval) or the invite it uses (by invitation). */
export type Admission = { kind: 'open' } | { kind: 'approval'; reason: string } | { kind: 'invitation'; code: string };

/**
 * The sign-up's admission under the mode in force, checked before anything is hashed or written:
 * closed refuses, by approval the reason must pass the shared rule, by invitation the code must
 * name an invite that can still admit someone.
 */
export async function checkAdmission(ctx: ServiceContext, input: { reason?: string | undefined; invite?: string | undefined }): Promise<Admission> {
  const { mode } = await registrationSettings(ctx.db, ctx.app.config);
  switch (mode) {
    case 'open':
      return { kind: 'open' };
    case 'closed':
      throw forbidden('registrations_closed');
    case 'approval': {
      const problem = validateRegistrationReason(input.reason);
      if (problem) throw badRequest(problem);
      return { kind: 'approval', reason: trimText(input.reason ?? '') };
    }
    case 'invitation': {
      const code = input.invite?.trim();
      if (!code) throw forbidden('invite_required');
      const invite = await repo.findInviteByCode(ctx.db, code);
      if (!invite || invite.uses >= invite.max_uses || invite.expires_at <= Date.now()) throw badRequest('invalid_invite');
      return { kind: 'invitation', code };
    }
  }
}

/** In the sign-up's transaction: the application stored, or the invite's use taken (a race for its last use loses here). */
export async function admit(db: Executor, userId: string, admission: Admission, now: number = Date.now()): Promise<void> {
  if (admission.kind === 'approval') await repo.insertApplication(db, userId, admission.reason, now);
  if (admission.kind === 'invitation' && !(await repo.takeInviteUse(db, admission.code, now))) throw badRequest('invalid_invite');
}

/** An account whose sign-up waits for approval, or was refused, gets no session. */
export async function checkApproved(db: Executor, user: Pick<UserRecord, 'id'>): Promise<void> {
  const status = await repo.applicationStatus(db, user.id);
  if (status === 'pending') throw forbidden('registration_pending');
  if (status === 'refused') throw forbidden('registration_refused');
}

/** GET /registration/applications (instance moderators). */
export async function applications(ctx: ServiceContext, viewer: Viewer, query: PageQuery): Promise<ApplicationsReply> {
  requireModerator(viewer);
  const window = pageWindow(query, REGISTRATION_PAGE_SIZE);
  const { items, hasMore } = toPage(await repo.pendingApplications(ctx.db, window), window);
  return {
    applications: items.map((row) => ({
      _id: row.user_id,
      username: row.username,
      email: row.email,
      verified: row.verified,
      reason: row.reason,
      createdAt: row.created_at,
    })),
    hasMore,
  };
}

/** POST /registration/applications/{userId} (instance moderators): decided once, and the applicant told by mail. */
export async function decide(ctx: ServiceContext, viewer: Viewer, input: { userId: string; decision: ApplicationDecision }): Promise<'application_approved' | 'application_refused'> {
  requireModerator(viewer);
  const approved = input.decision === 'approve';
  if (!(await repo.decideApplication(ctx.db, input.userId, approved ? 'approved' : 'refused', viewer.id, Date.now()))) throw notFound('application_not_found');
  const user = await findUserById(ctx.db, input.userId);
  if (user?.email) await enqueueAccountMail(ctx.db, approved ? 'registration_approved' : 'registration_refused', user, user.email);
  return approved ? 'application_approved' : 'application_refused';
}

const toInviteItem = (row: repo.InviteRow): InviteItem => ({
  _id: row.id,
  code: row.code,
  maxUses: row.max_uses,
  uses: row.uses,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

/** GET /registration/invites: the caller's own links. */
export async function invites(ctx: ServiceContext, viewer: Viewer, query: PageQuery): Promise<InvitesReply> {
  const window = pageWindow(query, REGISTRATION_PAGE_SIZE);
  const { items, hasMore } = toPage(await repo.invitesOf(ctx.db, viewer.id, window), window);
  return { invites: items.map(toInviteItem), hasMore };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** POST /registration/invites: moderators always, members when the instance lets them; a few usable links each at most. */
export async function createInvite(ctx: ServiceContext, viewer: Viewer, input: NewInviteBody): Promise<InviteItem> {
  const { membersInvite } = await registrationSettings(ctx.db, ctx.app.config);
  if (!isModerator(viewer) && !membersInvite) throw forbidden('invites_not_allowed');
  const now = Date.now();
  if ((await repo.usableInviteCount(ctx.db, viewer.id, now)) >= LIMITS.openInvitesPerAccount) throw tooMany('invite_limit');
  const invite: repo.InviteRow = {
    id: newId(),
    code: randomBytes(16).toString('base64url'),
    created_by: viewer.id,
    max_uses: input.maxUses,
    uses: 0,
    expires_at: now + input.days * DAY_MS,
    created_at: now,
  };
  await repo.insertInvite(ctx.db, invite);
  return toInviteItem(invite);
}

/** DELETE /registration/invites/{id}: its maker or an instance moderator; anyone else is told there is no such link. */
export async function revokeInvite(ctx: ServiceContext, viewer: Viewer, inviteId: string): Promise<void> {
  const invite = await repo.findInvite(ctx.db, inviteId);
  if (!invite || (invite.created_by !== viewer.id && !isModerator(viewer))) throw notFound('invite_not_found');
  await repo.deleteInvite(ctx.db, inviteId);
}
