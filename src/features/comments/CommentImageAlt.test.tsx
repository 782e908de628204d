import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { attachFiles, pngFile, useTestFiles } from '../../test/files';
import { mockFetch, setOnline, startOffline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import { CommentBox } from './CommentBox';
import { CommentImage } from './CommentImage';

const POST = 'p'.repeat(24);

beforeEach(async () => {
  useTestFiles();
  await startOffline('me', 'u9');
  setOnline(false);
  mockFetch(() => ({ status: 503, body: {} }));
});
afterEach(() => cancelScheduledSend());

describe('a comment image and its description', () => {
  it('the comment box asks for the description of its image and queues it with the comment, without a content warning', async () => {
    renderWithApp(<CommentBox parentId={POST} postId={POST} />);
    const text = screen.getByRole('textbox', { name: 'Write a comment' });
    await waitFor(() => expect(text).toBeEnabled());
    expect(screen.queryByRole('button', { name: 'Content warning' })).toBeNull();
    fireEvent.change(text, { target: { value: 'look at this' } });
    attachFiles([pngFile('dog.png')]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Image description' }), { target: { value: 'A dog with a stick' } });
    await waitFor(async () => expect((await getDb().drafts.get(`comment:${POST}`))?.images[0]?.alt).toBe('A dog with a stick'), { timeout: 3000 });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(1));
    const [row] = await getDb().outbox.toArray();
    expect(row).toMatchObject({ kind: 'comment', payload: { text: 'look at this', parent: POST } });
    expect(row!.images.map((i) => i.alt)).toEqual(['A dog with a stick']);
  });

  it('names the image by its description, else generically', () => {
    const { unmount } = renderWithApp(<CommentImage url="/media/c0.webp" alt="A dog with a stick" />);
    expect(screen.getByRole('img', { name: 'A dog with a stick' })).toHaveAttribute('src', '/media/c0.webp');
    unmount();
    renderWithApp(<CommentImage url="/media/c0.webp" alt="" />);
    expect(screen.getByRole('img', { name: 'Image of the comment' })).toBeInTheDocument();
  });
});
