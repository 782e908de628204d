import { describe, expect, it } from 'vitest';
import type { InviteItem, RegistrationSettings } from '#core/api/registration';
import { LIMITS } from '#core/limits';
import { loadConfig } from '../../src/config';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { countRows, createPasswordUser, expectError, expectInfo, expectSignedUp, freshAddress, lastMail, login, mailCount, parseLink, signup } from './support';

/**
 * Registration modes: open, by approval, by invitation and closed, set by the instance moderators;
 * every rule answered by the server with its key, and NodeInfo telling other servers which it is.
 */

const password = 'pa$$w0rd';
const person = (name: string, extra: Record<string, unknown> = {}) => ({ username: name, email: `${name.toLowerCase()}@example.test`, password, ...extra });

describe('registration modes', () => {
  const t = useTestApp({ FEDERATION: 'true', PUBLIC_URL: 'https://kruh.example' });
  let mod: TestUser;
  let member: TestUser;

  const setMode = async (settings: RegistrationSettings, by: TestUser = mod) =>
    call(t.app, by, { method: 'PUT', url: '/api/registration', payload: settings });
  const settings = async () => (await t.app.inject({ method: 'GET', url: '/api/registration' })).json() as RegistrationSettings;
  const nodeInfo = async () =>
    (await t.app.inject({ method: 'GET', url: '/nodeinfo/2.1' })).json() as { openRegistrations: boolean; metadata: { registrationMode: string } };
  const verify = async (email: string) => {
    const link = parseLink((await lastMail(t, email)).link);
    expectInfo(await t.app.inject({ method: 'GET', url: `/api/auth/verify?token=${encodeURIComponent(link.token)}&email=${encodeURIComponent(link.email)}` }), 'email_verified');
  };
  const createInvite = (by: TestUser, body: Record<string, unknown> = { maxUses: 1, days: 7 }) =>
    call(t.app, by, { method: 'POST', url: '/api/registration/invites', payload: body });

  it('starts open, as before, and only a moderator changes the mode', async () => {
    mod = await createUser(t.app);
    member = await createUser(t.app);
    await runAdminCommand(t.app.db, { grant: mod.username });
    expect(await settings()).toEqual({ mode: 'open', membersInvite: false });
    expect(await nodeInfo()).toMatchObject({ openRegistrations: true, metadata: { registrationMode: 'open' } });

    expectError(await setMode({ mode: 'closed', membersInvite: false }, member), 403, 'moderators_only');
    expectError(await call(t.app, mod, { method: 'PUT', url: '/api/registration', payload: { mode: 'sometimes', membersInvite: false } }), 400, 'invalid_registration_settings');
    expect((await settings()).mode).toBe('open');
  });

  it('closed: a sign-up is refused with 403 and nothing is stored; NodeInfo says closed', async () => {
    expectInfo(await setMode({ mode: 'closed', membersInvite: false }), 'registration_updated');
    const before = await countRows(t.app, 'users');
    expectError(await signup(t.app, person('Closed1')), 403, 'registrations_closed');
    expect(await countRows(t.app, 'users')).toBe(before);
    expect(await mailCount(t, 'closed1@example.test')).toBe(0);
    expect(await nodeInfo()).toMatchObject({ openRegistrations: false, metadata: { registrationMode: 'closed' } });
    // An account made before still signs in.
    const old = await createPasswordUser(t.app);
    expect((await login(t.app, old.username, old.password)).statusCode).toBe(200);
  });

  it('approval: the sign-up needs a reason, waits for a moderator, and the applicant is told by mail', async () => {
    await setMode({ mode: 'approval', membersInvite: false });
    expect(await nodeInfo()).toMatchObject({ openRegistrations: false, metadata: { registrationMode: 'approval' } });
    const before = await countRows(t.app, 'users');
    expectError(await signup(t.app, person('Applicant')), 400, 'registration_reason_required');
    expectError(await signup(t.app, person('Applicant', { reason: '   ' })), 400, 'registration_reason_required');
    expectError(await signup(t.app, person('Applicant', { reason: 'x'.repeat(LIMITS.registrationReasonMaxLength + 1) })), 400, 'max_registration_reason_length');
    expect(await countRows(t.app, 'users')).toBe(before);

    expectSignedUp(await signup(t.app, person('Applicant', { reason: '  I run the local choir.  ' })), 'signup_application');
    await verify('applicant@example.test');
    expectError(await login(t.app, 'Applicant', password), 403, 'registration_pending');
    // Listed nowhere until approved: no profile, no search hit.
    const profile = () => call(t.app, member, { method: 'GET', url: '/api/profile/user/Applicant' });
    const found = async () => JSON.stringify((await call(t.app, member, { method: 'GET', url: '/api/search/users?query=applicant' })).json());
    expect((await profile()).statusCode).toBe(404);
    expect(await found()).not.toContain('Applicant');

    expectError(await call(t.app, member, { method: 'GET', url: '/api/registration/applications' }), 403, 'moderators_only');
    const list = (await call(t.app, mod, { method: 'GET', url: '/api/registration/applications' })).json() as { applications: { _id: string; username: string; reason: string; verified: boolean }[] };
    expect(list.applications).toEqual([expect.objectContaining({ username: 'Applicant', reason: 'I run the local choir.', verified: true, email: 'applicant@example.test' })]);
    const id = list.applications[0]!._id;

    const decide = (by: TestUser, decision: string, userId = id) =>
      call(t.app, by, { method: 'POST', url: `/api/registration/applications/${userId}`, payload: { decision } });
    expectError(await decide(member, 'approve'), 403, 'moderators_only');
    expectInfo(await decide(mod, 'approve'), 'application_approved');
    expectError(await decide(mod, 'refuse'), 404, 'application_not_found');
    const mail = await lastMail(t, 'applicant@example.test');
    expect(mail.subject).toBe('Your Kruh account is approved');
    expect(mail.link).toBe('https://kruh.example/login');
    expect((await login(t.app, 'Applicant', password)).statusCode).toBe(200);
    expect((await profile()).statusCode).toBe(200);
    expect(await found()).toContain('Applicant');
    expect((await call(t.app, mod, { method: 'GET', url: '/api/registration/applications' })).json()).toEqual({ applications: [], hasMore: false });
  });

  it('approval: a refused applicant is told by mail, in their language, and cannot sign in', async () => {
    await setMode({ mode: 'approval', membersInvite: false });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: person('Odmitnuty', { reason: 'Chci se připojit.', language: 'cs' }),
      remoteAddress: freshAddress(),
    });
    expectSignedUp(res, 'signup_application');
    await verify('odmitnuty@example.test');
    const row = await t.app.db.selectFrom('users').select('id').where('username_lower', '=', 'odmitnuty').executeTakeFirstOrThrow();
    expectInfo(await call(t.app, mod, { method: 'POST', url: `/api/registration/applications/${row.id}`, payload: { decision: 'refuse' } }), 'application_refused');
    expect((await lastMail(t, 'odmitnuty@example.test')).subject).toBe('Vaše registrace do Kruhu');
    expectError(await login(t.app, 'Odmitnuty', password), 403, 'registration_refused');
  });

  it('approval: an unverified applicant is asked to verify first', async () => {
    await setMode({ mode: 'approval', membersInvite: false });
    expectSignedUp(await signup(t.app, person('Unverified', { reason: 'hello' })), 'signup_application');
    expectError(await login(t.app, 'Unverified', password), 403, 'verify_email');
  });

  it('invitation: a sign-up needs a valid code, each use counted, and expired or used-up links refused', async () => {
    await setMode({ mode: 'invitation', membersInvite: false });
    expect(await nodeInfo()).toMatchObject({ openRegistrations: false, metadata: { registrationMode: 'invitation' } });
    expectError(await signup(t.app, person('Invitee1')), 403, 'invite_required');
    expectError(await signup(t.app, person('Invitee1', { invite: 'nope' })), 400, 'invalid_invite');

    const created = await createInvite(mod, { maxUses: 2, days: 1 });
    expect(created.statusCode).toBe(201);
    const invite = created.json() as InviteItem;
    expect(invite).toMatchObject({ maxUses: 2, uses: 0 });
    expect(invite.expiresAt - invite.createdAt).toBe(24 * 60 * 60 * 1000);

    expectSignedUp(await signup(t.app, person('Invitee1', { invite: invite.code })), 'signup_email');
    expectSignedUp(await signup(t.app, person('Invitee2', { invite: invite.code })), 'signup_email');
    const before = await countRows(t.app, 'users');
    expectError(await signup(t.app, person('Invitee3', { invite: invite.code })), 400, 'invalid_invite');
    expect(await countRows(t.app, 'users')).toBe(before);
    const mine = (await call(t.app, mod, { method: 'GET', url: '/api/registration/invites' })).json() as { invites: InviteItem[] };
    expect(mine.invites.find((i) => i._id === invite._id)).toMatchObject({ uses: 2, maxUses: 2 });

    const expiring = (await createInvite(mod)).json() as InviteItem;
    await t.app.db.updateTable('invites').set({ expires_at: Date.now() - 1 }).where('id', '=', expiring._id).execute();
    expectError(await signup(t.app, person('Invitee4', { invite: expiring.code })), 400, 'invalid_invite');
  });

  it('invitation: a refused sign-up (a taken name) does not use the invite up', async () => {
    await setMode({ mode: 'invitation', membersInvite: false });
    const invite = (await createInvite(mod)).json() as InviteItem;
    expectError(await signup(t.app, person(member.username, { invite: invite.code, email: 'other@example.test' })), 409, 'username_taken');
    expectSignedUp(await signup(t.app, person('Invitee5', { invite: invite.code })), 'signup_email');
  });

  it('invites: members make them only when the instance lets them; the maker or a moderator revokes', async () => {
    await setMode({ mode: 'invitation', membersInvite: false });
    expectError(await createInvite(member), 403, 'invites_not_allowed');
    expectError(await createInvite(mod, { maxUses: 0, days: 1 }), 400, 'invalid_invite_settings');
    expectError(await createInvite(mod, { maxUses: 1, days: LIMITS.inviteMaxDays + 1 }), 400, 'invalid_invite_settings');

    await setMode({ mode: 'invitation', membersInvite: true });
    expect(await settings()).toEqual({ mode: 'invitation', membersInvite: true });
    const res = await createInvite(member);
    expect(res.statusCode).toBe(201);
    const invite = res.json() as InviteItem;
    const other = await createUser(t.app);
    const listOf = async (user: TestUser) => ((await call(t.app, user, { method: 'GET', url: '/api/registration/invites' })).json() as { invites: InviteItem[] }).invites;
    expect((await listOf(member)).map((i) => i._id)).toEqual([invite._id]);
    expect(await listOf(other)).toEqual([]);

    expectError(await call(t.app, other, { method: 'DELETE', url: `/api/registration/invites/${invite._id}` }), 404, 'invite_not_found');
    expectInfo(await call(t.app, member, { method: 'DELETE', url: `/api/registration/invites/${invite._id}` }), 'invite_revoked');
    expect(await listOf(member)).toEqual([]);
    expectError(await signup(t.app, person('Invitee6', { invite: invite.code })), 400, 'invalid_invite');

    const modRevokes = (await createInvite(member)).json() as InviteItem;
    expectInfo(await call(t.app, mod, { method: 'DELETE', url: `/api/registration/invites/${modRevokes._id}` }), 'invite_revoked');
  });

  it('invites: an account holds a limited number of usable links', async () => {
    await setMode({ mode: 'invitation', membersInvite: true });
    const holder = await createUser(t.app);
    for (let i = 0; i < LIMITS.openInvitesPerAccount; i++) expect((await createInvite(holder)).statusCode).toBe(201);
    expectError(await createInvite(holder), 429, 'invite_limit');
  });

  it('open again: sign-ups need neither reason nor invite', async () => {
    await setMode({ mode: 'open', membersInvite: false });
    expectSignedUp(await signup(t.app, person('OpenAgain')), 'signup_email');
    expect(await nodeInfo()).toMatchObject({ openRegistrations: true });
  });
});

describe('REGISTRATION_MODE, the mode until the moderators choose', () => {
  const t = useTestApp({ REGISTRATION_MODE: 'closed' });

  it('is read at start, and a moderator setting wins over it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/registration' })).json()).toEqual({ mode: 'closed', membersInvite: false });
    expectError(await signup(t.app, person('Early')), 403, 'registrations_closed');
    const mod = await createUser(t.app);
    await runAdminCommand(t.app.db, { grant: mod.username });
    expectInfo(await call(t.app, mod, { method: 'PUT', url: '/api/registration', payload: { mode: 'open', membersInvite: false } }), 'registration_updated');
    expectSignedUp(await signup(t.app, person('Later')), 'signup_email');
  });

  it('refuses a value that is not a mode', () => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), REGISTRATION_MODE: 'invite' })).toThrow(
      'REGISTRATION_MODE must be one of open, approval, invitation, closed, got "invite"',
    );
  });
});
