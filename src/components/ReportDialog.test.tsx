import '../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import type { Post } from '../lib/api/types';
import { getDb } from '../lib/db/db';
import { cancelScheduledSend } from '../lib/outbox/outbox';
import { getToasts } from '../lib/toast';
import { apiPost, mockFetch, setOnline, startOffline, startOnline } from '../test/local-first';
import { chooseFromMenu, openMenu } from '../test/menu';
import { renderWithApp } from '../test/render';
import { PostCard } from './post/PostCard';
import { ReportDialog } from './ReportDialog';
import { loadPostMenuPanel } from './post/PostMenu';

const bobsPost = apiPost('p1', { text: 'Hello', author: { username: 'bob', pfp: 'u2' } }) as Post;

afterEach(() => cancelScheduledSend());

const outbox = () => getDb().outbox.toArray();

async function openFromMenu() {
  await chooseFromMenu('More actions', 'Report post');
  return screen.getByRole('dialog', { name: 'Report this post' });
}

function send(reason: string) {
  fireEvent.change(screen.getByLabelText('Why are you reporting it?'), { target: { value: reason } });
  fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
}

// The menu's entries come in their own chunk, which a page loads once idle after its first cards.
beforeAll(async () => {
  await loadPostMenuPanel();
});

describe('reporting a post from its menu', () => {
  beforeEach(() => startOffline('alice', 'u1'));

  it("is offered on someone else's post, not on one's own", async () => {
    mockFetch(() => ({ body: {} }));
    const { unmount } = renderWithApp(<PostCard post={{ ...bobsPost, itsme: true }} />);
    await openMenu('More actions');
    expect(screen.queryByRole('menuitem', { name: 'Report post' })).toBeNull();
    unmount();
    renderWithApp(<PostCard post={bobsPost} />);
    expect(await openFromMenu()).toBeInTheDocument();
  });

  it('needs a reason within the shared limit and queues nothing without one', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={bobsPost} />);
    await openFromMenu();
    send('  \n ');
    expect(await screen.findByText('Say why you are reporting this.')).toBeInTheDocument();
    send('x'.repeat(LIMITS.reportReasonMaxLength + 1));
    expect(await screen.findByText('The reason can be at most 500 characters long.')).toBeInTheDocument();
    expect(screen.getByLabelText('Why are you reporting it?')).toHaveAttribute('aria-invalid', 'true');
    expect(await outbox()).toEqual([]);
  });

  it('is kept in the outbox while offline, once per target, and says it will be sent later', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={bobsPost} />);
    await openFromMenu();
    send('x'.repeat(LIMITS.reportReasonMaxLength));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(getToasts().at(-1)).toMatchObject({ kind: 'info', message: 'moderation:report.queued' });
    await openFromMenu();
    send('again');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'report', status: 'pending', payload: { kind: 'post', id: 'p1', reason: 'x'.repeat(LIMITS.reportReasonMaxLength) } });
  });

  it('speaks Czech', async () => {
    mockFetch(() => ({ body: {} }));
    renderWithApp(<PostCard post={bobsPost} />, { lng: 'cs' });
    await chooseFromMenu('Další akce', 'Nahlásit příspěvek');
    expect(screen.getByRole('dialog', { name: 'Nahlásit tento příspěvek' })).toBeInTheDocument();
    expect(screen.getByLabelText('Proč to nahlašujete?')).toBeInTheDocument();
  });
});

describe('sending a report', () => {
  beforeEach(() => startOnline('u1'));

  it('is sent once online with its Idempotency-Key, and the reporter is thanked', async () => {
    const { calls } = mockFetch(() => ({ body: { message: 'info/report_received' } }));
    renderWithApp(<ReportDialog kind="comment" id="c1" onClose={() => {}} />);
    send('rude');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/report', body: { kind: 'comment', id: 'c1', reason: 'rude' } });
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(async () => expect(await outbox()).toEqual([]));
    expect(getToasts().at(-1)).toMatchObject({ kind: 'info', message: 'info/report_received' });
  });

  it('shows a refusal translated and leaves no row behind', async () => {
    mockFetch(() => ({ status: 409, body: { message: 'error/already_reported' } }));
    renderWithApp(<ReportDialog kind="user" id="u2" onClose={() => {}} />);
    send('a bot');
    await waitFor(() => expect(getToasts().at(-1)).toMatchObject({ kind: 'error', message: 'error/already_reported' }));
    await waitFor(async () => expect(await outbox()).toEqual([]));
  });

  it('keeps the report for a retry when the server does not answer', async () => {
    mockFetch(() => new Error('offline'));
    renderWithApp(<ReportDialog kind="post" id="p1" onClose={() => {}} />);
    send('spam');
    await waitFor(async () => expect((await outbox())[0]).toMatchObject({ kind: 'report', status: 'failed' }));
    setOnline(true);
  });
});
