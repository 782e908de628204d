import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../lib/api/types';
import { getDb } from '../../lib/db/db';
import { draftKeys, loadDraft } from '../../lib/drafts/store';
import { kickOutbox, makeFailedDue } from '../../lib/outbox/outbox';
import { getToasts } from '../../lib/toast';
import { type FetchCall, apiPost, mockFetch, setOnline, setUpLocalFirst, startOnline } from '../../test/local-first';
import { chooseFromMenu, openMenu } from '../../test/menu';
import { renderWithApp } from '../../test/render';
import { PostCard } from './PostCard';
import { loadPostMenuPanel } from './PostMenu';

const ID = 'a'.repeat(24);
const WRITTEN = Date.now() - 60 * 60_000;
const mine = (extra: Partial<Post> = {}) => apiPost(ID, { text: 'Hello', itsme: true, createdAt: WRITTEN, editedAt: null, ...extra }) as Post;

/** The card as a feed shows it: read live from the local database. */
function StoredCard() {
  const post = useLiveQuery(() => getDb().posts.get(ID));
  return post ? <PostCard post={post} /> : null;
}

async function renderStored(post: Post, lng?: 'en' | 'cs') {
  await getDb().posts.put({ ...post, cachedAt: Date.now() });
  renderWithApp(<StoredCard />, lng ? { lng } : {});
  return screen.findByText(post.text);
}

const edits = (calls: FetchCall[]) => calls.filter((c) => c.method === 'PATCH' && c.path === `/api/post/${ID}`);

/** The server: an edit answers the post with its new text; anything else answers nothing much. */
function server(refuse?: { status: number; key: string }) {
  return mockFetch((call) => {
    if (call.method === 'PATCH' && call.path === `/api/post/${ID}`) {
      if (refuse) return { status: refuse.status, body: { message: `error/${refuse.key}` } };
      const body = call.body as { text: string };
      return { body: mine({ text: body.text, editedAt: Date.now() }) };
    }
    return { body: {} };
  });
}

async function editTo(text: string) {
  await chooseFromMenu('More actions', 'Edit');
  const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
  const box = within(dialog).getByRole('textbox', { name: 'Text of the post' });
  await waitFor(() => expect(box).not.toBeDisabled());
  expect(box).toHaveValue('Hello');
  fireEvent.change(box, { target: { value: text } });
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
  // Queued: the editor closes.
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

// The menu's entries come in their own chunk, which a page loads once idle after its first cards.
beforeAll(async () => {
  await loadPostMenuPanel();
});

setUpLocalFirst(() => startOnline('u1'));

describe('editing a post', () => {
  it('online: the author edits in the shared editor, the card shows the text at once, and the edit is sent once with a key', async () => {
    const { calls } = server();
    await renderStored(mine());
    await editTo('Hello world');
    expect(await screen.findByText('Hello world')).toBeInTheDocument();
    await waitFor(() => expect(edits(calls)).toHaveLength(1));
    const [sent] = edits(calls);
    expect(sent!.body).toEqual({ text: 'Hello world', mentions: [], contentWarning: null });
    expect(sent!.headers['Idempotency-Key']).toMatch(/.{8,}/);
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(0));
    expect((await getDb().posts.get(ID))?.editedAt).toEqual(expect.any(Number));
    expect(screen.getByRole('button', { name: 'Edited: show earlier versions' })).toHaveTextContent('edited');
  });

  it('is offered to the author only', async () => {
    server();
    await renderStored(mine({ itsme: false }));
    await openMenu('More actions');
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).toBeNull();
  });

  it('offline: the edit shows at once and stays in the outbox; back online it is sent once', async () => {
    const { calls } = server();
    setOnline(false);
    await renderStored(mine());
    await editTo('Written on a train');
    expect(await screen.findByText('Written on a train')).toBeInTheDocument();
    expect(await screen.findByText('edited')).toBeInTheDocument();
    expect((await getDb().posts.get(ID))?.text).toBe('Written on a train');
    expect(await getDb().outbox.count()).toBe(1);
    expect(edits(calls)).toHaveLength(0);
    expect(getToasts().at(-1)).toEqual(expect.objectContaining({ message: 'edits:saved_offline' }));

    // A refresh from the server meanwhile still has the old text: the waiting edit shows over it.
    await getDb().posts.put({ ...mine(), cachedAt: Date.now() });
    expect(await screen.findByText('Written on a train')).toBeInTheDocument();

    setOnline(true);
    await makeFailedDue(getDb());
    await kickOutbox();
    await kickOutbox();
    expect(edits(calls)).toHaveLength(1);
    expect(await getDb().outbox.count()).toBe(0);
    expect((await getDb().posts.get(ID))?.text).toBe('Written on a train');
  });

  it('refused: the error is shown translated, the post is back as it was and the text waits in the editor', async () => {
    server({ status: 400, key: 'max_post_lines' });
    const before = getToasts().length;
    await renderStored(mine());
    await editTo('Too\nmany\nlines');
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(0));
    expect(getToasts().slice(before)).toContainEqual(expect.objectContaining({ kind: 'error', message: 'error/max_post_lines' }));
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    expect((await getDb().posts.get(ID))?.editedAt).toBeNull();
    expect(await loadDraft(draftKeys.edit(ID))).toMatchObject({ text: 'Too\nmany\nlines', returnedError: 'max_post_lines' });

    // Opening the editor again gives the refused text back with the reason.
    await chooseFromMenu('More actions', 'Edit');
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Text of the post' })).toHaveValue('Too\nmany\nlines'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/This edit was not saved/);
  });

  it('checks the text by the rules of a post before queueing anything', async () => {
    const { calls } = server();
    await renderStored(mine());
    await chooseFromMenu('More actions', 'Edit');
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const box = within(dialog).getByRole('textbox', { name: 'Text of the post' });
    await waitFor(() => expect(box).not.toBeDisabled());
    fireEvent.change(box, { target: { value: '   ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    expect(within(dialog).getByRole('alert')).not.toBeEmptyDOMElement();
    expect(await getDb().outbox.count()).toBe(0);
    expect(edits(calls)).toHaveLength(0);
    // The editor of an edit offers no images: the post keeps the ones it has.
    expect(within(dialog).queryByText('Add images')).toBeNull();
  });
});

describe('the edited mark and the history', () => {
  it('a post never edited shows no mark', async () => {
    server();
    await renderStored(mine());
    expect(screen.queryByText('edited')).toBeNull();
  });

  it('shows "edited" and, when clicked, the earlier versions newest first with their times; they read offline later', async () => {
    const versions = [
      { text: 'Second words', contentWarning: null, writtenAt: WRITTEN + 60_000, replacedAt: WRITTEN + 120_000 },
      { text: 'First words', contentWarning: 'spoilers', writtenAt: WRITTEN, replacedAt: WRITTEN + 60_000 },
    ];
    const { calls } = mockFetch((call) => (call.path === `/api/post/${ID}/history` ? { body: { versions } } : { body: {} }));
    await renderStored(mine({ text: 'Third words', editedAt: WRITTEN + 120_000 }));
    fireEvent.click(screen.getByRole('button', { name: 'Edited: show earlier versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Earlier versions' });
    await within(dialog).findByText('Second words');
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.post-text')?.textContent)).toEqual(['Second words', 'First words']);
    expect(items[1]).toHaveTextContent('Content warning: spoilers');
    expect(items[0]!.querySelector('time')).toHaveAttribute('dateTime', new Date(WRITTEN + 60_000).toISOString());
    expect(calls.filter((c) => c.path.endsWith('/history'))).toHaveLength(1);
    expect((await getDb().meta.get(`post-history:${ID}`))?.value).toEqual(versions);
  });

  it('speaks Czech', async () => {
    mockFetch(() => ({ body: { versions: [] } }));
    await renderStored(mine({ editedAt: WRITTEN + 1 }), 'cs');
    fireEvent.click(screen.getByRole('button', { name: 'Upraveno: zobrazit dřívější verze' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dřívější verze' });
    expect(await within(dialog).findByText('Žádné dřívější verze nejsou.')).toBeInTheDocument();
  });
});
