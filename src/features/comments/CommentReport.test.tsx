import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Comment } from '../../lib/api/types';
import { getDb } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { clearSession } from '../../lib/session';
import { apiComment, mockFetch, startOffline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { CommentItem, ThreadProvider } from './CommentThread';

const POST = 'p00000000000000000000001';

function renderComment(extra: Record<string, unknown> = {}) {
  const comment = apiComment('c1', POST, { text: 'rude words', author: { username: 'bob', pfp: 'u2' }, ...extra }) as Comment;
  return renderWithApp(
    <ThreadProvider value={{ postId: POST, sort: 'newest', time: 'all', pending: [] }}>
      <ul>
        <CommentItem comment={comment} />
      </ul>
    </ThreadProvider>,
  );
}

beforeEach(() => startOffline('alice', 'u1'));
afterEach(() => cancelScheduledSend());

describe("a comment's report action", () => {
  it("reports someone else's comment through the outbox", async () => {
    mockFetch(() => ({ body: { comments: [], hasMore: false } }));
    renderComment();
    fireEvent.click(await screen.findByRole('button', { name: 'Report' }));
    expect(screen.getByRole('dialog', { name: 'Report this comment' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Why are you reporting it?'), { target: { value: 'rude' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(async () => expect(await getDb().outbox.toArray()).toEqual([expect.objectContaining({ kind: 'report', payload: { kind: 'comment', id: 'c1', reason: 'rude' } })]));
  });

  it("is not offered on one's own comment nor to a visitor", async () => {
    mockFetch(() => ({ body: { comments: [], hasMore: false } }));
    const { unmount } = renderComment({ itsme: true });
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    unmount();
    clearSession();
    renderComment();
    expect(await screen.findByText('rude words')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
  });
});
