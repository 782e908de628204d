import '../../test/setup';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { File as NodeFile } from 'node:buffer';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '../../lib/db/db';
import { draftKeys } from '../../lib/drafts/drafts';
import { clearSession, getSession } from '../../lib/session';
import { keepShare, takeShare } from '../../lib/share/shared-items';
import { getToasts } from '../../lib/toast';
import { attachFiles, pngFile } from '../../test/files';
import { apiPost, mockFetch, setOnline } from '../../test/local-first';
import { composerTextbox, renderComposer, setUpComposerTests } from './compose-test-kit';

const routes = [
  { path: '/feed', element: <p>feed page</p> },
  { path: '/login', element: <p>login page</p> },
  { path: '/', element: <p>home</p> },
];

function answer(call: { path: string; url: string }) {
  if (call.path === '/api/auth/test') return { body: { message: 'ok' } };
  if (call.path === '/api/search/users') return { body: [{ _id: 'u2', name: 'bob' }] };
  if (call.path === '/api/search/mygroups') return { body: [{ _id: 'g1', name: 'cats' }] };
  // The card names a group the caller may not see; the post's groups call leaves it out.
  if (call.path === '/api/post/orig') return { body: apiPost('orig', { text: 'the original', groups: [{ _id: 'g7', name: 'dogs' }, { _id: null, name: 'hidden' }] }) };
  if (call.path === '/api/post/orig/groups') return { body: ['dogs'] };
  return { status: 404, body: { message: 'error/invalid_post' } };
}

const render = (route = '/post') => renderComposer(route, routes);
const textbox = composerTextbox;

setUpComposerTests();

describe('ComposePage', () => {
  it('asks visitors to log in, to come back to the composer', async () => {
    clearSession();
    mockFetch(answer);
    const { router } = render();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/post');
  });

  it('stays on the composer when the server refuses the token: what is written waits for the next login', async () => {
    mockFetch((call) => (call.path === '/api/auth/test' ? { status: 401, body: { message: 'error/invalid_token' } } : answer(call)));
    const { router } = render();
    await waitFor(() => expect(getSession().expired).toBe(true));
    expect(await screen.findByRole('textbox', { name: 'What is on your mind?' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/post');
  });

  it('checks the token once, through the route guard only', async () => {
    setOnline(true);
    const { calls } = mockFetch(answer);
    render();
    await screen.findByRole('textbox', { name: 'What is on your mind?' });
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/auth/test')).toHaveLength(1));
  });

  it('validates with the shared rules and shows the error under the editor', async () => {
    mockFetch(answer);
    render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    expect(screen.getByRole('heading', { name: 'New post' })).toBeInTheDocument();
    expect(textbox()).toHaveAttribute('maxLength', '512');
    fireEvent.change(textbox(), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A post cannot be empty.');
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('queues the post on Ctrl+Enter, clears the draft and goes to /', async () => {
    mockFetch(answer);
    const { router } = render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    expect(screen.getByRole('heading', { name: 'New post' })).toBeInTheDocument();
    expect(screen.queryByText(/Replying as/)).toBeNull();
    fireEvent.change(textbox(), { target: { value: 'Hello #world' } });
    fireEvent.keyDown(textbox(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const rows = await getDb().outbox.toArray();
    expect(rows).toEqual([expect.objectContaining({ kind: 'post', status: 'pending', payload: expect.objectContaining({ text: 'Hello #world', replyingTo: null }) })]);
    expect(rows[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await getDb().drafts.get(draftKeys.post())).toBeUndefined();
    expect(getToasts().at(-1)).toEqual(expect.objectContaining({ kind: 'info', message: 'compose:saved_offline' }));
  });

  it('online, waits for the server: a refusal stays in the composer with its reason and a toast', async () => {
    setOnline(true);
    mockFetch((call) => (call.path === '/api/post' ? { status: 403, body: { message: 'error/need_admin' } } : answer(call)));
    const { router } = render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(textbox(), { target: { value: 'Into a closed group' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Only a group admin can do this.'));
    expect(textbox()).toHaveValue('Into a closed group');
    expect(router.state.location.pathname).toBe('/post');
    expect(getToasts()).toContainEqual(expect.objectContaining({ kind: 'error', message: 'error/need_admin' }));
    expect(screen.getByRole('button', { name: 'Post' })).toBeEnabled();
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('online, goes to the feed once the server took the post, saying it is published', async () => {
    setOnline(true);
    mockFetch((call) => (call.path === '/api/post' ? { status: 201, body: { ...apiPost('p9', { text: 'Hello' }), post: apiPost('p9', { text: 'Hello' }) } } : answer(call)));
    const { router } = render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(textbox(), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToasts().at(-1)).toEqual(expect.objectContaining({ kind: 'info', message: 'compose:posted' }));
  });

  it('tells about Ctrl+Enter where there is a keyboard and a mouse, not on a touch screen', async () => {
    mockFetch(answer);
    const pointer = (coarse: boolean) =>
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: coarse && query.includes('coarse'),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }));
    pointer(false);
    const desktop = render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    expect(screen.getByText('Ctrl+Enter posts.')).toBeInTheDocument();
    desktop.unmount();

    pointer(true);
    render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    expect(screen.queryByText('Ctrl+Enter posts.')).toBeNull();
    // The count stays on screen.
    expect(screen.getByText('0/512')).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('adds a mention slot on @@, locks a picked suggestion and clears it when edited', async () => {
    setOnline(true);
    const { calls } = mockFetch(answer);
    render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(textbox(), { target: { value: 'hi @@' } });
    expect(textbox()).toHaveValue('hi ');
    const slot = await screen.findByRole('combobox', { name: 'Username' });
    fireEvent.change(slot, { target: { value: 'bo' } });
    const option = await screen.findByRole('option', { name: '@bob' }, { timeout: 2000 });
    expect(calls.find((c) => c.path === '/api/search/users')?.url).toContain('query=bo');
    fireEvent.click(option);
    expect(slot).toHaveValue('bob');
    fireEvent.change(textbox(), { target: { value: 'hi there' } });
    // Offline, the queued post waits in the outbox to be read (online, the refusal below would take it back).
    setOnline(false);
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(1));
    const [row] = await getDb().outbox.toArray();
    expect(row!.kind === 'post' && row!.payload.mentions).toEqual([{ query: 'bob', id: 'u2' }]);
  });

  it('removes an empty slot on Backspace and drops an edited selection', async () => {
    mockFetch(answer);
    render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: /Add group/ }));
    const slot = await screen.findByRole('combobox', { name: 'Group name' });
    fireEvent.keyDown(slot, { key: 'Backspace' });
    expect(screen.queryByRole('combobox', { name: 'Group name' })).toBeNull();
  });

  it('takes images only, at most two for a post', async () => {
    mockFetch(answer);
    render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    attachFiles([new NodeFile(['a'], 'a.txt', { type: 'text/plain' })]);
    expect(screen.getByRole('alert')).toHaveTextContent('Only images are allowed.');
    attachFiles([1, 2, 3].map((i) => pngFile(`${i}.png`)));
    expect(screen.getByRole('alert')).toHaveTextContent('You can attach only up to 2 images.');
    expect(screen.getAllByRole('button', { name: /Remove image/ })).toHaveLength(2);
  });

  it('replies: heading, quoted original, its groups locked, one image', async () => {
    setOnline(true);
    mockFetch(answer);
    render('/post?rep=orig&author=alice');
    // Both ends of the reply: whom it answers, and the account it goes from.
    expect(screen.getByRole('heading', { name: 'Replying to @alice' })).toBeInTheDocument();
    expect(screen.getByText('Replying as @me')).toBeInTheDocument();
    expect(await screen.findByText('the original')).toBeInTheDocument();
    const group = await screen.findByRole('combobox', { name: 'Group name' });
    expect(group).toHaveValue('dogs');
    expect(group).toHaveAttribute('readonly');
    expect(screen.getAllByRole('combobox', { name: 'Group name' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Add group/ })).toBeNull();
    attachFiles([1, 2].map((i) => pngFile(`${i}.png`)));
    expect(screen.getByRole('alert')).toHaveTextContent('You can attach only 1 image.');
  });

  it('presets a reply’s groups offline from the answer stored when they were seen', async () => {
    await getDb().meta.put({ key: 'post-groups:orig', value: ['dogs'] });
    mockFetch(() => new TypeError('Failed to fetch'));
    render('/post?rep=orig');
    expect(await screen.findByRole('combobox', { name: 'Group name' })).toHaveValue('dogs');
  });

  it('takes what another app shared into the draft, offline, after text already there, and keeps it', async () => {
    mockFetch(answer);
    await getDb().drafts.put({ key: draftKeys.post(), text: 'Half a thought', mentions: [], groups: [], images: [], updatedAt: 1 });
    const photos = [1, 2, 3].map((i) => ({ blob: pngFile(`${i}.png`) as unknown as Blob, name: `${i}.png` }));
    await keepShare({ text: 'Roses in bloom\nhttps://example.com/roses', images: photos });
    render('/post?shared=1');
    await waitFor(() => expect(textbox()).toHaveValue('Half a thought\nRoses in bloom\nhttps://example.com/roses'));
    // Three were shared; a post takes two, and says so.
    expect(await screen.findAllByRole('button', { name: /Remove image/ })).toHaveLength(2);
    expect(screen.getByRole('alert')).toHaveTextContent('You can attach only up to 2 images.');
    expect(await takeShare()).toBeUndefined();
    await waitFor(async () => {
      const draft = await getDb().drafts.get(draftKeys.post());
      expect(draft?.text).toContain('Roses in bloom');
      expect(draft?.images.map((i) => i.name)).toEqual(['1.png', '2.png']);
    });
  });

  it('opens empty when the share was already taken', async () => {
    mockFetch(answer);
    render('/post?shared=1');
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    expect(textbox()).toHaveValue('');
    expect(screen.queryAllByRole('button', { name: /Remove image/ })).toHaveLength(0);
  });

  it('restores the saved draft and says when the server refused it', async () => {
    mockFetch(answer);
    await getDb().drafts.put({ key: draftKeys.post(), text: 'came back', mentions: [], groups: [], images: [], updatedAt: 1, returnedError: 'banned' });
    render();
    await waitFor(() => expect(textbox()).toHaveValue('came back'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This post was not published'));
    expect(screen.getByRole('alert')).toHaveTextContent('You are banned');
  });

  it('autosaves what is typed', async () => {
    mockFetch(answer);
    const view = render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(textbox(), { target: { value: 'keep me' } });
    await act(async () => view.unmount());
    await waitFor(async () => expect((await getDb().drafts.get(draftKeys.post()))?.text).toBe('keep me'));
  });
});
