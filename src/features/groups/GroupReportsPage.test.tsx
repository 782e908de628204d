import '../../test/setup';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockFetch, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import GroupReportsPage from './GroupReportsPage';

configure({ asyncUtilTimeout: 5000 });

const REPORT = 'r'.repeat(24);
const reported = {
  _id: REPORT,
  kind: 'post',
  targetId: 'p'.repeat(24),
  user: { _id: 'b'.repeat(24), username: 'bob', suspended: false },
  text: 'off-topic ad',
  postId: 'p'.repeat(24),
  reasons: ['spam'],
  reporters: 1,
  createdAt: Date.now() - 60_000,
};

const render = (lng: 'en' | 'cs' = 'en') => renderWithApp(<GroupReportsPage />, { route: '/g/cats/reports', path: '/g/:groupname/reports', lng });

beforeEach(() => startOnline('u1'));

describe("a group's reports page", () => {
  it("lists the group's reported posts with the admin's actions, and sends the one chosen", async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'POST') return { body: { message: 'info/user_banned' } };
      if (call.path === '/api/group/cats/reports') return { body: { reports: [reported], hasMore: false } };
      return { body: { actions: [{ _id: 'l1', actor: 'alice', action: 'remove', targetKind: 'post', targetId: 'p2', group: 'cats', createdAt: Date.now() }], hasMore: false } };
    });
    render();
    expect(await screen.findByText('off-topic ad')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'cats · Reports' })).toBeInTheDocument();
    for (const name of ['Remove from the group', 'Ban bob in the group', 'Dismiss']) expect(screen.getByRole('button', { name })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(await screen.findByText(/alice removed a post from &cats/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Ban bob in the group' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Ban bob' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/api/group/cats/reports/${REPORT}`, body: { action: 'ban' } }));
  });

  it('cancelling the confirmation sends nothing', async () => {
    const { calls } = mockFetch((call) => (call.path === '/api/group/cats/reports' ? { body: { reports: [reported], hasMore: false } } : { body: { actions: [], hasMore: false } }));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove from the group' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("shows a member the server's refusal, in Czech too", async () => {
    mockFetch(() => ({ status: 403, body: { message: 'error/need_admin' } }));
    render('cs');
    await waitFor(() => expect(screen.getAllByText('To může udělat jen správce skupiny.')).toHaveLength(2));
    expect(screen.getByRole('heading', { name: 'cats · Nahlášení' })).toBeInTheDocument();
  });
});
