import '../../test/setup';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReportItem } from '#core/api/reports';
import { getDb } from '../../lib/db/db';
import { listKeys, storedListKey } from '../../lib/query/keys';
import { getToasts } from '../../lib/toast';
import { mockFetch, setOnline, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import ModerationPage from './ModerationPage';

configure({ asyncUtilTimeout: 5000 });

const BOB = 'b'.repeat(24);
const report = (extra: Partial<ReportItem> = {}): ReportItem => ({
  _id: 'r'.repeat(24),
  kind: 'post',
  targetId: 'p'.repeat(24),
  user: { _id: BOB, username: 'bob', suspended: false },
  text: 'buy cheap watches',
  postId: 'p'.repeat(24),
  reasons: ['spam', 'ads again'],
  reporters: 2,
  createdAt: Date.now() - 60_000,
  ...extra,
});
const logEntry = { _id: 'l'.repeat(24), actor: 'mod', action: 'dismiss', targetKind: 'comment', targetId: 'c'.repeat(24), group: null, createdAt: Date.now() - 5_000 };

/** The public settings of an instance that federates, or not. */
const config = (federation: boolean) => ({ body: { googleClientId: null, tenorEnabled: false, mediaUrl: null, federation } });

const render = (lng: 'en' | 'cs' = 'en') => renderWithApp(<ModerationPage />, { route: '/moderation', path: '/moderation', lng });

beforeEach(() => startOnline('u1'));

describe('the moderation page', () => {
  it('tells someone who is not a moderator so once, with none of the forms', async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/moderators_only' } }));
    render();
    expect(await screen.findByText('This screen is for the moderators of this server. Your account is not one of them.')).toBeInTheDocument();
    expect(screen.queryByText('Only the moderators can do this.')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Block domain' })).toBeNull();
  });

  it('lists the open reports with their reasons, and the log', async () => {
    mockFetch((call) =>
      call.path === '/api/reports' ? { body: { reports: [report()], hasMore: false } } : { body: { actions: [logEntry], hasMore: false } });
    render();
    expect(await screen.findByText('buy cheap watches')).toBeInTheDocument();
    expect(screen.getByText(/Reported by 2 people/)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Reasons' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['spam', 'ads again']);
    expect(screen.getByRole('link', { name: 'bob' })).toHaveAttribute('href', '/u/bob');
    expect(screen.getByRole('link', { name: 'Open' })).toHaveAttribute('href', `/p/${'p'.repeat(24)}`);
    expect(await screen.findByText(/mod dismissed a report \(Comment\)/)).toBeInTheDocument();
  });

  it('confirms an action, sends it at once and reads the queue and the log again', async () => {
    let open = true;
    const { calls } = mockFetch((call) => {
      if (call.method === 'POST') {
        open = false;
        return { body: { message: 'info/user_suspended' } };
      }
      if (call.path === '/api/reports') return { body: { reports: open ? [report()] : [], hasMore: false } };
      return { body: { actions: [], hasMore: false } };
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Suspend bob' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Suspend bob? They will be signed out');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend bob' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/api/reports/${'r'.repeat(24)}`, body: { action: 'suspend' } }));
    expect(await screen.findByText('No open reports.')).toBeInTheDocument();
    expect(getToasts().at(-1)).toMatchObject({ kind: 'info', message: 'info/user_suspended' });
    expect(calls.filter((c) => c.path === '/api/reports/log').length).toBeGreaterThanOrEqual(2);
  });

  it('offers no delete for a reported user, and lifting the suspension of a suspended one', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') return { body: { message: 'info/user_unsuspended' } };
      if (call.path === '/api/reports') return { body: { reports: [report({ kind: 'user', targetId: BOB, text: null, postId: null, user: { _id: BOB, username: 'bob', suspended: true } })], hasMore: false } };
      return { body: { actions: [], hasMore: false } };
    });
    render();
    expect(await screen.findByText('Suspended')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Lift the suspension' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/api/reports/suspended/${BOB}`));
  });

  it('loads the next page of the queue and of the log when asked', async () => {
    const second = report({ _id: 's'.repeat(24), text: 'second page report' });
    const { calls } = mockFetch((call) => {
      const page = new URL(call.url, 'http://x').searchParams.get('page');
      if (call.path === '/api/reports') return { body: { reports: page === '1' ? [report()] : [second], hasMore: page === '1' } };
      return { body: { actions: page === '1' ? [logEntry] : [{ ...logEntry, _id: 'm'.repeat(24), actor: 'other' }], hasMore: page === '1' } };
    });
    render();
    const queue = screen.getByRole('region', { name: 'Open reports' });
    expect(await within(queue).findByText('buy cheap watches')).toBeInTheDocument();
    fireEvent.click(await within(queue).findByRole('button', { name: 'Show more' }));
    expect(await within(queue).findByText('second page report')).toBeInTheDocument();
    expect(within(queue).getByText('buy cheap watches')).toBeInTheDocument();
    expect(within(queue).queryByRole('button', { name: 'Show more' })).toBeNull();
    const asked = calls.filter((c) => c.path === '/api/reports').map((c) => new URL(c.url, 'http://x').searchParams);
    // Page 2 alone is asked for: the first page stays as it was read.
    expect(asked.map((q) => q.get('page'))).toEqual(['1', '2']);
    expect(asked.at(-1)?.get('limit')).toBe('10');

    const log = screen.getByRole('region', { name: 'Moderation log' });
    fireEvent.click(await within(log).findByRole('button', { name: 'Show more' }));
    expect(await within(log).findByText(/other dismissed a report/)).toBeInTheDocument();
    expect(within(log).getByText(/mod dismissed a report/)).toBeInTheDocument();
  });

  it('shows the stored queue offline, with the actions held back until there is a connection', async () => {
    const key = storedListKey(listKeys.moderation('reports', 'all'));
    await getDb().listItems.put({ listKey: key, id: report()._id, data: report(), cachedAt: Date.now() });
    await getDb().feedPages.put({ feedKey: key, page: 1, ids: [report()._id], hasMore: false, fetchedAt: Date.now() });
    setOnline(false);
    mockFetch(() => new Error('offline'));
    render();
    expect(await screen.findByText('buy cheap watches')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You are offline. Moderation actions need a connection');
    for (const name of ['Delete', 'Suspend bob', 'Dismiss']) expect(screen.getByRole('button', { name })).toBeDisabled();
  });

  it('speaks Czech', async () => {
    mockFetch((call) => (call.path === '/api/reports' ? { body: { reports: [report()], hasMore: false } } : { body: { actions: [], hasMore: false } }));
    render('cs');
    expect(await screen.findByText(/Nahlásili 2 lidé/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Moderace' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zamítnout' })).toBeInTheDocument();
    expect(screen.getByText('Zatím žádné moderátorské akce.')).toBeInTheDocument();
  });

  describe('the blocked domains', () => {
    const blocked = { domain: 'spam.example', createdAt: Date.now() - 60_000, createdBy: 'mod' };
    const DOMAINS = '/api/moderation/domain-blocks';
    /** The reports and the log are empty; the domains are `domains()` at each read. */
    const answer = (domains: () => (typeof blocked)[], extra?: (call: { method: string; path: string }) => object | undefined) =>
      mockFetch((call) => {
        const special = extra?.(call);
        if (special) return special;
        if (call.path === '/api/config') return config(true);
        if (call.path === DOMAINS) return { body: { domains: domains(), hasMore: false } };
        if (call.path === '/api/reports') return { body: { reports: [], hasMore: false } };
        return { body: { actions: [], hasMore: false } };
      });

    it('lists them, blocks one more once confirmed and reads the list again', async () => {
      let domains = [blocked];
      const { calls } = answer(
        () => domains,
        (call) => {
          if (call.method !== 'POST') return undefined;
          domains = [{ ...blocked, domain: 'bad.example' }, blocked];
          return { body: { message: 'info/domain_blocked' } };
        },
      );
      render();
      const section = await screen.findByRole('region', { name: 'Blocked domains' });
      expect(await within(section).findByText('spam.example')).toBeInTheDocument();
      expect(within(section).getByText(/blocked by mod/)).toBeInTheDocument();
      fireEvent.change(within(section).getByLabelText('Domain'), { target: { value: ' bad.example ' } });
      fireEvent.click(within(section).getByRole('button', { name: 'Block domain' }));
      const dialog = screen.getByRole('alertdialog');
      expect(dialog).toHaveTextContent('Block bad.example and its subdomains?');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Block bad.example' }));
      await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: DOMAINS, body: { domain: 'bad.example' } }));
      expect(await within(section).findByText('bad.example')).toBeInTheDocument();
      expect(within(section).getByLabelText('Domain')).toHaveValue('');
      expect(getToasts().at(-1)).toMatchObject({ kind: 'info', message: 'info/domain_blocked' });
    });

    it('sends nothing when the block is not confirmed, and lifts a block at once', async () => {
      let domains = [blocked];
      const { calls } = answer(
        () => domains,
        (call) => {
          if (call.method !== 'DELETE') return undefined;
          domains = [];
          return { body: { message: 'info/domain_unblocked' } };
        },
      );
      render();
      const section = await screen.findByRole('region', { name: 'Blocked domains' });
      fireEvent.change(await within(section).findByLabelText('Domain'), { target: { value: 'other.example' } });
      fireEvent.click(within(section).getByRole('button', { name: 'Block domain' }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
      fireEvent.click(await within(section).findByRole('button', { name: 'Unblock spam.example' }));
      await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`${DOMAINS}/spam.example`));
      expect(await within(section).findByText('No blocked domains.')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    });

    it("shows the server's refusal of what is not a domain, keeping what was typed", async () => {
      answer(
        () => [],
        (call) => (call.method === 'POST' ? { status: 400, body: { message: 'error/invalid_domain' } } : undefined),
      );
      render();
      const section = await screen.findByRole('region', { name: 'Blocked domains' });
      fireEvent.change(await within(section).findByLabelText('Domain'), { target: { value: 'not a domain' } });
      fireEvent.click(within(section).getByRole('button', { name: 'Block domain' }));
      fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Block not a domain' }));
      await waitFor(() => expect(getToasts().at(-1)).toMatchObject({ kind: 'error', message: 'error/invalid_domain' }));
      expect(within(section).getByLabelText('Domain')).toHaveValue('not a domain');
    });

    it('are hidden, and not asked for, while the instance does not federate', async () => {
      const { calls } = mockFetch((call) => {
        if (call.path === '/api/config') return config(false);
        if (call.path === '/api/reports') return { body: { reports: [], hasMore: false } };
        return { body: { actions: [], hasMore: false } };
      });
      render();
      expect(await screen.findByText('No open reports.')).toBeInTheDocument();
      await waitFor(() => expect(calls.some((c) => c.path === '/api/config')).toBe(true));
      expect(await screen.findByRole('link', { name: 'People' })).toHaveAttribute('href', '/moderation/people');
      expect(screen.getByRole('link', { name: 'Instance settings' })).toHaveAttribute('href', '/moderation/instance');
      expect(screen.queryByRole('region', { name: 'Blocked domains' })).toBeNull();
      expect(calls.filter((c) => c.path === DOMAINS)).toEqual([]);
    });

    it('holds the buttons back offline, as the instance federated when last asked, and speaks Czech', async () => {
      localStorage.setItem('kruh.federation', 'true');
      setOnline(false);
      mockFetch(() => new Error('offline'));
      render('cs');
      const section = await screen.findByRole('region', { name: 'Blokované domény' });
      fireEvent.change(within(section).getByLabelText('Doména'), { target: { value: 'spam.example' } });
      expect(within(section).getByRole('button', { name: 'Zablokovat doménu' })).toBeDisabled();
    });
  });
});
