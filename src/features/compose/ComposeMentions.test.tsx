import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { type OutboxRow, getDb } from '../../lib/db/db';
import { draftKeys } from '../../lib/drafts/drafts';
import { drainOutbox } from '../../lib/outbox/outbox';
import { type FetchCall, apiPost, mockFetch, setOnline } from '../../test/local-first';
import { composerTextbox, renderComposer, setUpComposerTests } from './compose-test-kit';

const routes = [{ path: '/', element: <p>home</p> }];

/** The accounts the server knows, and its suggestions for a query (the name itself first). */
const ACCOUNTS = [
  { _id: 'u2', name: 'bob' },
  { _id: 'u3', name: 'bobby' },
  { _id: 'u4', name: 'carol' },
  { _id: 'u5', name: 'dave' },
];
const GROUPS = [{ _id: 'g1', name: 'cats' }, { _id: 'g2', name: 'catering' }];

function answer(call: FetchCall) {
  const query = new URL(call.url, 'http://x').searchParams.get('query')?.toLowerCase() ?? '';
  if (call.path === '/api/auth/test') return { body: { message: 'ok' } };
  if (call.path === '/api/search/users') return { body: ACCOUNTS.filter((a) => a.name.includes(query)) };
  if (call.path === '/api/search/mygroups') return { body: GROUPS.filter((g) => g.name.includes(query)) };
  if (call.path === '/api/post' && call.method === 'POST') return { status: 201, body: apiPost('p00000000000000000000001') };
  return { status: 404, body: { message: 'error/invalid_post' } };
}

const render = async () => {
  renderComposer('/post', routes);
  await waitFor(() => expect(composerTextbox()).toBeEnabled(), { timeout: 5000 });
  return composerTextbox();
};

// Counted and then read apart, the row could leave the outbox in between (sent): it is read once.
const queued = async () => {
  let rows: OutboxRow[] = [];
  await waitFor(async () => {
    rows = await getDb().outbox.toArray();
    expect(rows).toHaveLength(1);
  });
  const [row] = rows;
  if (row?.kind !== 'post') throw new Error('no post queued');
  return row.payload;
};

/** Online, the composer with `typed` typed into its text by a user. */
async function typeOnline(typed: string) {
  setOnline(true);
  mockFetch(answer);
  const user = userEvent.setup();
  const text = await render();
  await user.type(text, typed);
  return { user, text };
}

const mentionSlots = () => screen.queryAllByRole('combobox', { name: 'Username' });

setUpComposerTests();

describe('names typed into the composer', () => {
  it('offers accounts under the text for an @, the first highlighted; the arrows move, Escape closes, Enter takes one', async () => {
    const { user, text } = await typeOnline('Hi @bo');
    const list = await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 3000 });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['@bob', '@bobby']);
    expect(text).toHaveAttribute('aria-controls', list.id);
    expect(text).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await user.keyboard('{ArrowDown}');
    expect(text).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{ArrowUp}');
    expect(text).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(text).not.toHaveAttribute('aria-activedescendant');
    // Typing on opens it again; Enter takes the highlighted name into the text and adds its slot.
    await user.type(text, 'b');
    await screen.findByRole('listbox', { name: 'Suggestions' }, { timeout: 3000 });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(text).toHaveValue('Hi @bobby ');
    expect(text).toHaveFocus();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(mentionSlots().map((s) => (s as HTMLInputElement).value)).toEqual(['bobby']);
    // With the list closed, Enter is a new line again.
    await user.keyboard('{Enter}there');
    expect(text).toHaveValue('Hi @bobby \nthere');
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect((await queued()).mentions).toEqual([{ query: 'bobby', id: 'u3' }]);
  });

  it('offers the groups one may post in for an &, and takes one with a click', async () => {
    const { user, text } = await typeOnline('Lunch &cat');
    await user.click(await screen.findByRole('option', { name: '&catering' }, { timeout: 3000 }));
    expect(text).toHaveValue('Lunch &catering ');
    expect(screen.getByRole('combobox', { name: 'Group name' })).toHaveValue('catering');
  });

  it('makes each @name of an account a mention before the post leaves: "Hi @bob and @carol" with only bob added', async () => {
    setOnline(true);
    const { calls } = mockFetch(answer);
    const text = await render();
    fireEvent.change(text, { target: { value: 'Hi @@' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Username' }), { target: { value: 'bob' } });
    fireEvent.click(await screen.findByRole('option', { name: '@bob' }, { timeout: 3000 }));
    fireEvent.change(text, { target: { value: 'Hi @bob and @carol. Not @nobody, nor @eve@other.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect((await queued()).mentions).toEqual([{ query: 'bob', id: 'u2' }, { query: 'carol', id: 'u4' }]);
    expect(calls.some((c) => c.path === '/api/search/users' && c.url.includes('query=nobody'))).toBe(true);
    // A handle of another server is the server's to find.
    expect(calls.some((c) => c.url.includes('query=eve'))).toBe(false);
  });

  it('keeps the limit of mentions: a typed name past it stops the post with the reason', async () => {
    setOnline(true);
    mockFetch(answer);
    const full = Array.from({ length: LIMITS.mentionsPerPost }, (_, i) => ({ query: `friend${i}`, id: `f${i}` }));
    await getDb().drafts.put({ key: draftKeys.post(), text: 'Hi all and @carol', mentions: full, groups: [], images: [], updatedAt: 1 });
    await render();
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('You can mention at most 10 users.'));
    expect(await getDb().outbox.count()).toBe(0);
    expect(screen.getByRole('button', { name: 'Post' })).toBeEnabled();
  });

  it('offline, takes the accounts the device knows and leaves the rest for the send, which asks the server', async () => {
    mockFetch(answer);
    await getDb().posts.put({ ...apiPost('p00000000000000000000009', { author: { username: 'carol', pfp: 'u4', pfpUrl: '' } }), cachedAt: Date.now() });
    const text = await render();
    fireEvent.change(text, { target: { value: 'Hi @Carol and @dave and @nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    const payload = await queued();
    expect(payload.text).toBe('Hi @Carol and @dave and @nobody');
    expect(payload.mentions).toEqual([{ query: 'carol', id: 'u4' }]);

    setOnline(true);
    const { calls } = mockFetch(answer);
    await drainOutbox();
    const create = calls.find((c) => c.path === '/api/post' && c.method === 'POST');
    expect((create?.body as { mentions: string[] }).mentions).toEqual(['u4', 'u5']);
  });
});
