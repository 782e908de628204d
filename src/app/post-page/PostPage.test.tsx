import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { getDb } from '../../lib/db/db';
import { getSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { apiComment as comment, apiPost, mockFetch, setOnline, startOnline, type FetchCall } from '../../test/local-first';
import { chooseFromMenu } from '../../test/menu';
import { renderWithApp } from '../../test/render';
import PostPage from './PostPage';

const POST = 'p00000000000000000000001';
const id = (n: number) => `c${String(n).padStart(23, '0')}`;

const apiComment = (n: number, extra: Record<string, unknown> = {}) => comment(id(n), POST, { text: `comment ${n}`, ...extra });

type Answer = { status?: number; body?: unknown };

function server(routes: Record<string, (call: FetchCall) => Answer | Promise<Answer>>) {
  return mockFetch((call) => {
    const route = routes[`${call.method} ${call.path}`];
    return route ? route(call) : { status: 404, body: { message: 'error/server_error' } };
  });
}

const query = (call: FetchCall) => new URL(call.url, 'http://localhost').searchParams;

function renderPost(route = `/p/${POST}`) {
  return renderWithApp(<PostPage />, { route, path: '/p/:postId' });
}

beforeEach(async () => {
  cancelScheduledSend();
  await startOnline();
});

describe('post page', () => {
  it('shows the post, its comment count and its comments from the server', async () => {
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { text: 'hello world', comments: 2 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1), apiComment(2)], hasMore: false } }),
    });
    renderPost();
    expect(await screen.findByText('hello world')).toBeInTheDocument();
    expect(await screen.findByText('comment 1')).toBeInTheDocument();
    expect(screen.getByText('comment 2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '2 comments' })).toBeInTheDocument();
    const list = calls.find((c) => c.path === `/api/post/${POST}/comments`)!;
    // The post page's default listing (popular, all time) is the server's default: nothing more is sent.
    expect(Object.fromEntries(query(list))).toEqual({ page: '1', limit: '5' });
    // The comments are kept in the local database for the next visit.
    expect(await getDb().comments.get(id(1))).toMatchObject({ text: 'comment 1', postId: POST });
  });

  it('shows the deleted message for the deleted marker, and what went wrong on a failed load', async () => {
    server({ [`GET /api/post/${POST}`]: () => ({ status: 500, body: { message: 'error/server_error' } }) });
    const first = renderPost('/p/%3Cdeleted%3E');
    expect(await screen.findByRole('alert')).toHaveTextContent(/deleted/i);
    first.unmount();
    renderPost();
    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong on the server. Please try again.' })).toBeInTheDocument();
  });

  describe('deleting the post on its own page', () => {
    /** The author's post; the DELETE waits for `answer`, and the post reads `afterwards` once it settled. */
    function deletingServer(deleteAnswer: Answer, afterwards: Answer) {
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => (settle = resolve));
      let deleted = false;
      const mocked = server({
        [`GET /api/post/${POST}`]: () => (deleted ? afterwards : { body: apiPost(POST, { text: 'my post', itsme: true, comments: 1 }) }),
        [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1)], hasMore: false } }),
        [`DELETE /api/post/${POST}`]: async () => {
          await settled;
          deleted = true;
          return deleteAnswer;
        },
      });
      return { ...mocked, settle };
    }

    async function confirmDelete() {
      await screen.findByText('comment 1');
      await chooseFromMenu('More actions', 'Delete post');
      fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete post' }));
    }

    it('says at once that the post was deleted, before the server answers, and still after the reload', async () => {
      const { calls, settle } = deletingServer({ body: { message: 'info/post_deleted' } }, { status: 404, body: { message: 'error/didnt_find_post' } });
      renderPost();
      await confirmDelete();
      expect(await screen.findByText('This post was deleted.')).toHaveAttribute('role', 'alert');
      expect(screen.queryByText('my post')).not.toBeInTheDocument();
      expect(screen.queryByText('comment 1')).not.toBeInTheDocument();
      settle();
      // Reloaded whatever the outcome: the post is asked for again.
      await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === `/api/post/${POST}`)).toHaveLength(2));
      await waitFor(async () => expect(await getDb().posts.get(POST)).toBeUndefined());
      expect(screen.getByText('This post was deleted.')).toHaveAttribute('role', 'alert');
      expect(screen.queryByText('Loading the original post…')).not.toBeInTheDocument();
    });

    it('shows the post again when the reload finds it still there (the delete failed)', async () => {
      const { calls, settle } = deletingServer(
        { status: 500, body: { message: 'error/server_error' } },
        { body: apiPost(POST, { text: 'my post', itsme: true, comments: 1 }) },
      );
      renderPost();
      await confirmDelete();
      expect(await screen.findByText('This post was deleted.')).toHaveAttribute('role', 'alert');
      settle();
      expect(await screen.findByText('my post')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'GET' && c.path === `/api/post/${POST}`)).toHaveLength(2);
      expect(screen.queryByText('This post was deleted.')).not.toBeInTheDocument();
    });
  });

  it('says Post not found, not deleted, when the server answers 404 (gone or private), as a user or group page does', async () => {
    server({ [`GET /api/post/${POST}`]: () => ({ status: 404, body: { message: 'error/didnt_find_post' } }) });
    renderPost();
    // The page of its own, the only heading, with the way back to the feed.
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found.' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Go to the feed' })).toHaveAttribute('href', '/feed');
    expect(screen.queryByText(/deleted/i)).not.toBeInTheDocument();
  });

  it('says a post never stored is not saved on this device when offline', async () => {
    mockFetch(() => new TypeError('Failed to fetch'));
    renderPost();
    expect(await screen.findByRole('heading', { level: 1, name: 'You are offline, and this is not saved on this device.' })).toBeInTheDocument();
  });

  it('paints the stored post and comments when the network is gone', async () => {
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { text: 'kept post', comments: 1 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1, { text: 'kept comment' })], hasMore: false } }),
    });
    const first = renderPost();
    await screen.findByText('kept comment');
    first.unmount();
    mockFetch(() => new TypeError('Failed to fetch'));
    renderPost();
    expect(await screen.findByText('kept post')).toBeInTheDocument();
    expect(await screen.findByText('kept comment')).toBeInTheDocument();
  });

  it('says offline that comments never loaded are not on this device, not that there are none', async () => {
    await getDb().posts.put({ ...apiPost(POST, { text: 'kept post', comments: 2 }), cachedAt: Date.now() });
    mockFetch(() => new TypeError('Failed to fetch'));
    renderPost();
    expect(await screen.findByRole('heading', { name: '2 comments' })).toBeInTheDocument();
    expect(await screen.findByText('You are offline, and this is not saved on this device.')).toBeInTheDocument();
    expect(screen.queryByText(/No comments yet/)).not.toBeInTheDocument();
  });

  it('keeps the stored post and comments when the server refuses the session, saying nothing went wrong', async () => {
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { text: 'kept post', comments: 3 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1, { text: 'kept comment' })], hasMore: true } }),
    });
    const first = renderPost();
    await screen.findByText('kept comment');
    first.unmount();
    const before = getToasts().length;
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    renderPost();
    await waitFor(() => expect(getSession().expired).toBe(true));
    expect(await screen.findByText('kept post')).toBeInTheDocument();
    expect(await screen.findByText('kept comment')).toBeInTheDocument();
    expect(screen.queryByText('Post not found.')).not.toBeInTheDocument();
    expect(screen.queryByText(/went wrong/)).not.toBeInTheDocument();
    expect(getToasts().slice(before)).toEqual([]);
  });

  it('says a post never stored needs a login, not that it is gone, once the server refuses the session', async () => {
    mockFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    renderPost();
    expect(await screen.findByRole('heading', { level: 1, name: 'This is not saved on this device. Log in again to see it.' })).toBeInTheDocument();
  });

  it('loads more comments by a button, five a page', async () => {
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 6 }) }),
      [`GET /api/post/${POST}/comments`]: (call) =>
        query(call).get('page') === '1'
          ? { body: { comments: [1, 2, 3, 4, 5].map((n) => apiComment(n)), hasMore: true } }
          : { body: { comments: [apiComment(6)], hasMore: false } },
    });
    renderPost();
    expect(await screen.findByText('comment 5')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Load more comments' }));
    expect(await screen.findByText('comment 6')).toBeInTheDocument();
    const second = calls.filter((c) => c.path === `/api/post/${POST}/comments`).find((c) => query(c).get('page') === '2')!;
    expect(query(second).get('before')).toMatch(/^\d+$/);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more comments' })).not.toBeInTheDocument());
  });

  it('changing sort or time navigates with the listing parameters and reloads the comments', async () => {
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1)], hasMore: false } }),
    });
    const { router } = renderPost(`/p/${POST}?c=&focus=true`);
    await screen.findByText('comment 1');
    // Popular (the post page default) offers the time window; all time is its default.
    fireEvent.change(screen.getByRole('combobox', { name: 'Time' }), { target: { value: 'week' } });
    await waitFor(() => expect(router.state.location.search).toBe('?time=week'));
    await waitFor(() =>
      expect(calls.some((c) => c.path === `/api/post/${POST}/comments` && query(c).get('time') === 'week' && !query(c).has('sort'))).toBe(true),
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'newest' } });
    await waitFor(() => expect(router.state.location.search).toBe('?sort=newest'));
    expect(screen.queryByRole('combobox', { name: 'Time' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(calls.some((c) => c.path === `/api/post/${POST}/comments` && query(c).get('sort') === 'newest')).toBe(true),
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'popular' } });
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('focus=true puts the focus in the comment box', async () => {
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [], hasMore: false } }),
    });
    renderPost(`/p/${POST}?focus=true`);
    const box = await screen.findByRole('textbox', { name: 'Write a comment' });
    await waitFor(() => expect(box).not.toBeDisabled());
    await waitFor(() => expect(box).toHaveFocus());
  });

  it('c= pins the comment with its tree at the top, highlighted, and leaves it out of the list', async () => {
    const root = { ...apiComment(1, { comments: 2 }), pinned: false, hasMore: true };
    const pinned = {
      ...apiComment(3, { parent: { _id: id(1), author: { username: 'bob' }, directParent: false }, comments: 1 }),
      pinned: true,
      hasMore: false,
      children: [
        {
          ...apiComment(4, { parent: { _id: id(3), author: { username: 'bob' }, directParent: false } }),
          pinned: false,
          hasMore: false,
          children: [],
        },
      ],
    };
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 5 }) }),
      [`GET /api/comment/${id(3)}/tree`]: () => ({ body: { pinnedTree: { ...root, children: [pinned] } } }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(2)], hasMore: false } }),
    });
    const { container } = renderPost(`/p/${POST}?c=${id(3)}`);
    expect(await screen.findByText('comment 3')).toBeInTheDocument();
    expect(screen.getByText('comment 1')).toBeInTheDocument();
    expect(screen.getByText('comment 4')).toBeInTheDocument();
    expect(await screen.findByText('comment 2')).toBeInTheDocument();
    const highlighted = container.querySelector('.comment-highlighted')!;
    expect(highlighted).not.toBeNull();
    expect(within(highlighted as HTMLElement).getByText('comment 3')).toBeInTheDocument();
    // The tree sits above the list, and the list was asked without its root comment.
    const pinnedBox = container.querySelector('.comment-pinned')!;
    const list = container.querySelector('.comment-list')!;
    expect(pinnedBox.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(list as HTMLElement).queryByText('comment 1')).not.toBeInTheDocument();
    const listCall = calls.find((c) => c.path === `/api/post/${POST}/comments`)!;
    expect(query(listCall).get('pinned')).toBe(id(1));
  });

  it('indents a deep thread a few levels only, then goes on flat, each flat reply naming whom it answers', async () => {
    // comment 1 > 2 > ... > 8, written by user1 ... user8, the last one linked.
    type Node = ReturnType<typeof apiComment> & { pinned: boolean; hasMore: boolean; children: Node[] };
    let tree: Node | undefined;
    for (let n = 8; n >= 1; n -= 1) {
      const parent = n === 1 ? { _id: POST, author: { username: 'poster' }, directParent: true } : { _id: id(n - 1), author: { username: `user${n - 1}` }, directParent: false };
      tree = {
        ...apiComment(n, { parent, comments: n < 8 ? 1 : 0, author: { username: `user${n}`, pfp: null, pfpUrl: '/media/pfp/default.jpeg' } }),
        pinned: n === 8,
        hasMore: false,
        children: tree ? [tree] : [],
      };
    }
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 8 }) }),
      [`GET /api/comment/${id(8)}/tree`]: () => ({ body: { pinnedTree: tree } }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [], hasMore: false } }),
    });
    const { container } = renderPost(`/p/${POST}?c=${id(8)}`);
    expect(await screen.findByText('comment 8')).toBeInTheDocument();
    const item = (n: number) => container.querySelector<HTMLElement>(`[data-comment-id="${id(n)}"]`)!.closest('li')!;
    const indents = (n: number) => {
      let count = 0;
      for (let el = item(n).parentElement; el; el = el.parentElement) if (el.matches('.comment-replies:not(.comment-replies--flat)')) count += 1;
      return count;
    };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(indents)).toEqual([0, 1, 2, 3, 3, 3, 3, 3]);
    // Where the indent no longer shows who answers whom, the reply says it.
    expect(within(item(5).querySelector('article')!).getByText('Reply to user4')).toBeInTheDocument();
    expect(within(item(8).querySelector('article')!).getByText('Reply to user7')).toBeInTheDocument();
    expect(within(item(3).querySelector('article')!).queryByText(/Reply to/)).toBeNull();
  });

  it('c= shows the pinned tree offline once seen, from the local database', async () => {
    const tree = { ...apiComment(3, { text: 'the pinned one' }), pinned: true, hasMore: false, children: [] };
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 1 }) }),
      [`GET /api/comment/${id(3)}/tree`]: () => ({ body: { pinnedTree: tree } }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [], hasMore: false } }),
    });
    const first = renderPost(`/p/${POST}?c=${id(3)}`);
    expect(await screen.findByText('the pinned one')).toBeInTheDocument();
    first.unmount();

    mockFetch(() => new TypeError('Failed to fetch'));
    const { container } = renderPost(`/p/${POST}?c=${id(3)}`);
    expect(await screen.findByText('the pinned one')).toBeInTheDocument();
    expect(container.querySelector('.comment-highlighted')).not.toBeNull();
    expect(screen.queryByText(/no longer available/)).not.toBeInTheDocument();
  });

  it('a new comment appears first at once, pending, and the count rises by one', async () => {
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 2 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1), apiComment(2)], hasMore: false } }),
    });
    const { container } = renderPost();
    await screen.findByText('comment 2');
    setOnline(false);
    const box = screen.getByRole('textbox', { name: 'Write a comment' });
    await waitFor(() => expect(box).not.toBeDisabled());
    fireEvent.change(box, { target: { value: 'my new comment' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    const items = await waitFor(() => {
      const found = container.querySelectorAll('.comment-list > ul > li');
      expect(found[0]).toHaveTextContent('my new comment');
      return found;
    });
    expect(items[0]).toHaveTextContent('Waiting to send');
    expect(items).toHaveLength(3);
    expect(screen.getByRole('heading', { name: '3 comments' })).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue(''));
    const [row] = await getDb().outbox.toArray();
    expect(row).toMatchObject({ kind: 'comment', payload: { text: 'my new comment', parent: POST, postId: POST } });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a sent comment stays first and counted until the thread is read again', async () => {
    const created = apiComment(9, { text: 'sent comment', itsme: true, author: { username: 'alice', pfp: 'u1' }, createdAt: Date.now() + 1000 });
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 1 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1)], hasMore: false } }),
      'POST /api/comment/': () => ({ status: 201, body: created }),
    });
    const { container } = renderPost();
    await screen.findByText('comment 1');
    const box = screen.getByRole('textbox', { name: 'Write a comment' });
    await waitFor(() => expect(box).not.toBeDisabled());
    fireEvent.change(box, { target: { value: 'sent comment' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(0));
    await waitFor(() => {
      const items = container.querySelectorAll('.comment-list > ul > li');
      expect(items[0]).toHaveTextContent('sent comment');
      expect(items[0]).not.toHaveTextContent('Waiting to send');
    });
    expect(screen.getByRole('heading', { name: '2 comments' })).toBeInTheDocument();
  });

  it('delete asks for confirmation: cancel makes no call, yes deletes and reloads the list', async () => {
    let deleted = false;
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 1 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({
        body: { comments: deleted ? [] : [apiComment(1, { itsme: true, author: { username: 'alice', pfp: 'u1' } })], hasMore: false },
      }),
      [`DELETE /api/comment/${id(1)}`]: () => {
        deleted = true;
        return { body: { message: 'info/comment_deleted' } };
      },
    });
    renderPost();
    await screen.findByText('comment 1');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveAccessibleName('Do you really want to delete this comment?');
    expect(dialog).toHaveTextContent('Do you really want to delete this comment?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    const listCalls = () => calls.filter((c) => c.path === `/api/post/${POST}/comments`).length;
    const before = listCalls();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `/api/comment/${id(1)}`)).toBe(true));
    await waitFor(() => expect(screen.queryByText('comment 1')).not.toBeInTheDocument());
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
  });

  it('a like is shown at once and goes through the outbox', async () => {
    server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 1 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1, { likes: 2 })], hasMore: false } }),
    });
    renderPost();
    await screen.findByText('comment 1');
    setOnline(false);
    const like = screen.getAllByRole('button', { name: 'Like' }).find((b) => b.closest('.comment'))!;
    fireEvent.click(like);
    await waitFor(() => expect(screen.getByText('3 likes')).toBeInTheDocument());
    const [row] = await getDb().outbox.toArray();
    expect(row).toMatchObject({ kind: 'like', target: `comment:${id(1)}`, payload: { liked: true } });
  });

  it('replies are loaded page by page when their tree is shown', async () => {
    const { calls } = server({
      [`GET /api/post/${POST}`]: () => ({ body: apiPost(POST, { comments: 2 }) }),
      [`GET /api/post/${POST}/comments`]: () => ({ body: { comments: [apiComment(1, { comments: 1 })], hasMore: false } }),
      [`GET /api/post/${id(1)}/comments`]: () => ({
        body: { comments: [apiComment(2, { text: 'a reply', parent: { _id: id(1), author: { username: 'bob' }, directParent: false } })], hasMore: false },
      }),
    });
    renderPost();
    await screen.findByText('comment 1');
    expect(screen.getByText('1 reply')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show replies' }));
    expect(await screen.findByText('a reply')).toBeInTheDocument();
    expect(calls.some((c) => c.path === `/api/post/${id(1)}/comments`)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Hide replies' }));
    expect(screen.queryByText('a reply')).not.toBeInTheDocument();
  });
});
