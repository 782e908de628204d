import '../../test/setup';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApplicationItem, InviteItem } from '#core/api/registration';
import { getToasts } from '../../lib/toast';
import { type FetchCall, mockFetch, setOnline, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import ModerationPage from './ModerationPage';

configure({ asyncUtilTimeout: 5000 });

const APPLICANT = 'a'.repeat(24);
const application: ApplicationItem = {
  _id: APPLICANT,
  username: 'carol',
  email: 'carol@example.test',
  verified: true,
  reason: 'I lead the choir.',
  createdAt: Date.now() - 60_000,
};
const invite = (extra: Partial<InviteItem> = {}): InviteItem => ({
  _id: 'i'.repeat(24),
  code: 'abc123',
  maxUses: 3,
  uses: 1,
  expiresAt: Date.now() + 86_400_000,
  createdAt: Date.now() - 1000,
  ...extra,
});

/** The moderation page's calls: registration's as the test's `respond` says, every other list empty. */
function answer(respond: (call: FetchCall) => { status?: number; body?: unknown } | undefined) {
  return mockFetch((call) => {
    const own = respond(call);
    if (own) return own;
    if (call.path === '/api/registration') return { body: { mode: 'open', membersInvite: false } };
    if (call.path === '/api/registration/applications') return { body: { applications: [], hasMore: false } };
    if (call.path === '/api/registration/invites') return { body: { invites: [], hasMore: false } };
    if (call.path === '/api/reports') return { body: { reports: [], hasMore: false } };
    if (call.path === '/api/moderation/domain-blocks') return { body: { domains: [], hasMore: false } };
    return { body: { actions: [], hasMore: false } };
  });
}

const render = (lng: 'en' | 'cs' = 'en') => renderWithApp(<ModerationPage />, { route: '/moderation', path: '/moderation', lng });

beforeEach(() => startOnline('u1'));

describe('registration on the moderation page', () => {
  it('shows the mode in force and saves another one', async () => {
    let mode = 'open';
    const { calls } = answer((call) => {
      if (call.path !== '/api/registration') return undefined;
      if (call.method === 'PUT') {
        mode = (call.body as { mode: string }).mode;
        return { body: { message: 'info/registration_updated' } };
      }
      return { body: { mode, membersInvite: false } };
    });
    render();
    const section = screen.getByRole('region', { name: 'Registration' });
    expect(await within(section).findByRole('radio', { name: /^Open/ })).toBeChecked();
    const save = within(section).getByRole('button', { name: 'Save registration settings' });
    expect(save).toBeDisabled();
    fireEvent.click(within(section).getByRole('radio', { name: /^By approval/ }));
    fireEvent.click(within(section).getByRole('checkbox', { name: 'Members may create invite links' }));
    fireEvent.click(save);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ mode: 'approval', membersInvite: true }));
    await waitFor(() => expect(getToasts().at(-1)).toMatchObject({ kind: 'info', message: 'info/registration_updated' }));
    await waitFor(() => expect(within(section).getByRole('radio', { name: /^By approval/ })).toBeChecked());
  });

  it('makes an invite link, lists it with its uses, and revokes it', async () => {
    let invites: InviteItem[] = [];
    const { calls } = answer((call) => {
      if (call.path === '/api/registration/invites' && call.method === 'POST') {
        invites = [invite({ maxUses: (call.body as { maxUses: number }).maxUses, uses: 0 })];
        return { status: 201, body: invites[0] };
      }
      if (call.path === '/api/registration/invites') return { body: { invites, hasMore: false } };
      if (call.method === 'DELETE') {
        invites = [];
        return { body: { message: 'info/invite_revoked' } };
      }
      return undefined;
    });
    render();
    const section = screen.getByRole('region', { name: 'Invite links' });
    expect(await within(section).findByText('You have no invite links.')).toBeInTheDocument();
    fireEvent.change(within(section).getByLabelText('Sign-ups'), { target: { value: '3' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Create invite link' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ maxUses: 3, days: 7 }));
    const link = await within(section).findByLabelText('Invite link');
    expect(link).toHaveValue(`${window.location.origin}/signup?invite=abc123`);
    expect(within(section).getByText(/Used 0 of 3/)).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: `Revoke ${window.location.origin}/signup?invite=abc123` }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/api/registration/invites/${'i'.repeat(24)}`));
    expect(await within(section).findByText('You have no invite links.')).toBeInTheDocument();
  });

  it('lists a waiting sign-up with its reason, and approves it once confirmed', async () => {
    let waiting = true;
    const { calls } = answer((call) => {
      if (call.path === '/api/registration/applications') return { body: { applications: waiting ? [application] : [], hasMore: false } };
      if (call.path === `/api/registration/applications/${APPLICANT}`) {
        waiting = false;
        return { body: { message: 'info/application_approved' } };
      }
      return undefined;
    });
    const { queryClient } = render();
    const section = screen.getByRole('region', { name: 'Applications' });
    expect(await within(section).findByText('I lead the choir.')).toBeInTheDocument();
    expect(within(section).getByText(/Address confirmed/)).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: 'Approve carol' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Approve carol? They will be emailed and can sign in.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve carol' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/api/registration/applications/${APPLICANT}`, body: { decision: 'approve' } }));
    expect(await within(section).findByText('No sign-ups are waiting for approval.')).toBeInTheDocument();
    // Every list read again after the decision has landed before the next test starts.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('shows the stored mode offline with the buttons held back, in Czech', async () => {
    answer(() => undefined);
    const first = render('cs');
    const section = screen.getByRole('region', { name: 'Registrace' });
    expect(await within(section).findByRole('radio', { name: /^Otevřené/ })).toBeChecked();
    first.unmount();
    setOnline(false);
    mockFetch(() => new Error('offline'));
    render('cs');
    const offline = screen.getByRole('region', { name: 'Registrace' });
    fireEvent.click(await within(offline).findByRole('radio', { name: /^Uzavřené/ }));
    expect(within(offline).getByRole('button', { name: 'Uložit nastavení registrací' })).toBeDisabled();
  });
});
