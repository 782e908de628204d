import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../lib/db/db';
import { clearSession } from '../../lib/session';
import { apiComment as comment, mockFetch, setOnline, startOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { CommentBox } from './CommentBox';
import { fetchPage, readPages } from '../../lib/query/paged';
import { type ThreadParams, deleteComment, threadSource } from './comments.api';

const POST = 'p00000000000000000000001';

const apiComment = (id: string) => comment(id, POST);

// The calls the paging engine makes for a thread level (usePaged with threadSource).
const fetchThreadPage = ({ page, ...params }: ThreadParams & { page: number }) => fetchPage(getDb(), threadSource(params), page);
const readThread = (params: ThreadParams, pages: number) => readPages(getDb(), threadSource(params), pages);

beforeEach(() => startOnline());

describe('thread pages in the local database', () => {
  it('stores each page of a level in the server order and reads them back', async () => {
    mockFetch((call) => {
      const page = new URL(call.url, 'http://localhost').searchParams.get('page');
      return { body: { comments: page === '1' ? [apiComment('b'), apiComment('a')] : [apiComment('c'), apiComment('a')], hasMore: page === '1' } };
    });
    const params = { parentId: POST, sort: 'popular' as const, time: 'all' as const };
    await fetchThreadPage({ ...params, page: 1 });
    await fetchThreadPage({ ...params, page: 2 });
    const thread = await readThread(params, 2);
    expect(thread.items.map((c) => c._id)).toEqual(['b', 'a', 'c']);
    expect(thread.hasMore).toBe(false);
    expect(thread.stored).toBe(2);
    // Another sort is another listing.
    expect((await readThread({ ...params, sort: 'newest' }, 1)).stored).toBe(0);
  });

  it('a deleted comment leaves the database and every stored page', async () => {
    mockFetch((call) =>
      call.method === 'DELETE' ? { body: { message: 'info/comment_deleted' } } : { body: { comments: [apiComment('a'), apiComment('b')], hasMore: false } },
    );
    const params = { parentId: POST, sort: 'newest' as const, time: 'all' as const };
    await fetchThreadPage({ ...params, page: 1 });
    await deleteComment('a');
    expect(await getDb().comments.get('a')).toBeUndefined();
    expect((await readThread(params, 1)).items.map((c) => c._id)).toEqual(['b']);
  });

  it('a refused delete keeps the comment', async () => {
    mockFetch((call) =>
      call.method === 'DELETE' ? { status: 403, body: { message: 'error/not_author' } } : { body: { comments: [apiComment('a')], hasMore: false } },
    );
    await fetchThreadPage({ parentId: POST, sort: 'newest', time: 'all', page: 1 });
    await expect(deleteComment('a')).rejects.toMatchObject({ status: 403, key: 'not_author' });
    expect(await getDb().comments.get('a')).toBeDefined();
  });
});

describe('comment box', () => {
  it('shows the validation message under the box and queues nothing for a blank comment', async () => {
    mockFetch(() => ({ status: 404 }));
    renderWithApp(<CommentBox parentId={POST} postId={POST} />);
    const box = await screen.findByRole('textbox', { name: 'Write a comment' });
    await waitFor(() => expect(box).not.toBeDisabled());
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A comment cannot be empty.');
    expect(await getDb().outbox.count()).toBe(0);
  });

  it('autosaves the text as the draft of its parent and restores it', async () => {
    mockFetch(() => ({ status: 404 }));
    const first = renderWithApp(<CommentBox parentId="c1" postId={POST} />);
    const box = await screen.findByRole('textbox', { name: 'Write a reply' });
    await waitFor(() => expect(box).not.toBeDisabled());
    fireEvent.change(box, { target: { value: 'half written' } });
    await waitFor(async () => expect((await getDb().drafts.get('comment:c1'))?.text).toBe('half written'));
    first.unmount();
    renderWithApp(<CommentBox parentId="c1" postId={POST} />);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Write a reply' })).toHaveValue('half written'));
  });

  it('@@ adds a mention slot and the comment is queued with the parent and mentions', async () => {
    setOnline(false);
    mockFetch(() => ({ status: 404 }));
    renderWithApp(<CommentBox parentId="c1" postId={POST} />);
    const box = await screen.findByRole('textbox', { name: 'Write a reply' });
    await waitFor(() => expect(box).not.toBeDisabled());
    fireEvent.change(box, { target: { value: 'hi @@' } });
    expect(box).toHaveValue('hi ');
    const slot = await screen.findByRole('group', { name: 'Mentions' });
    const input = slot.querySelector('input')!;
    fireEvent.change(input, { target: { value: 'carol' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(1));
    const [row] = await getDb().outbox.toArray();
    expect(row).toMatchObject({
      kind: 'comment',
      draftKey: 'comment:c1',
      payload: { text: 'hi ', parent: 'c1', postId: POST, mentions: [{ query: 'carol', id: null }] },
    });
  });

  it('asks a visitor to log in instead', async () => {
    clearSession();
    renderWithApp(<CommentBox parentId={POST} postId={POST} />, { lng: 'cs' });
    expect(screen.getByRole('link', { name: 'Přihlaste se a pište komentáře' })).toHaveAttribute('href', '/login?next=%2F');
  });
});
