import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { getDb } from '../../lib/db/db';
import { draftKeys } from '../../lib/drafts/drafts';
import { drainOutbox } from '../../lib/outbox/outbox';
import { attachFiles, pngFile } from '../../test/files';
import { apiPost, type FetchCall, mockFetch, setOnline } from '../../test/local-first';
import { composerTextbox, renderComposer, setUpComposerTests } from './compose-test-kit';

const POST = 'a'.repeat(24);

function answer(call: FetchCall) {
  if (call.path === '/api/auth/test') return { body: { message: 'ok' } };
  if (call.path === '/api/post' && call.method === 'POST') {
    const post = apiPost(POST, { text: 'Hello', contentWarning: 'cats ahead', alts: [] });
    return { status: 201, body: { ...post, post } };
  }
  if (call.path === '/api/upload/image') return { status: 201, body: { message: 'info/image_uploaded', url: `/media/${POST}0.webp?v=1` } };
  if (call.path === `/api/post/${POST}`) {
    return { body: apiPost(POST, { text: 'Hello', contentWarning: 'cats ahead', images: 1, media: [`/media/${POST}0.webp?v=1`], alts: ['A cat asleep'] }) };
  }
  return { status: 404, body: { message: 'error/invalid_post' } };
}

const render = () => renderComposer('/post', [{ path: '/', element: <p>home</p> }]);
const textbox = composerTextbox;

setUpComposerTests();

describe('image descriptions and the content warning in the composer', () => {
  it('go into the draft, the outbox item and, once online, the requests that send them', async () => {
    const { calls } = mockFetch(answer);
    const { router } = render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(textbox(), { target: { value: 'Hello' } });
    attachFiles([pngFile('cat.png')]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Image description' }), { target: { value: 'A cat asleep' } });
    const toggle = screen.getByRole('button', { name: 'Content warning' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('textbox', { name: 'Content warning' })).toBeNull();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    fireEvent.change(screen.getByRole('textbox', { name: 'Content warning' }), { target: { value: ' cats ahead ' } });

    // Autosaved with the draft, so they survive a reload.
    await waitFor(async () => {
      const draft = await getDb().drafts.get(draftKeys.post());
      expect(draft?.images.map((i) => i.alt)).toEqual(['A cat asleep']);
      expect(draft?.contentWarning).toBe(' cats ahead ');
    }, { timeout: 3000 });

    fireEvent.keyDown(textbox(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const [row] = await getDb().outbox.toArray();
    expect(row).toMatchObject({ kind: 'post', payload: { text: 'Hello', contentWarning: 'cats ahead' } });
    expect(row!.images.map((i) => i.alt)).toEqual(['A cat asleep']);

    setOnline(true);
    await drainOutbox();
    const create = calls.find((c) => c.path === '/api/post' && c.method === 'POST');
    expect(create?.body).toMatchObject({ text: 'Hello', contentWarning: 'cats ahead' });
    const upload = calls.find((c) => c.path === '/api/upload/image');
    const form = upload?.body as { get(name: string): unknown };
    expect(form.get('alt')).toBe('A cat asleep');
    expect(form.get('index')).toBe('0');
    expect(await getDb().outbox.count()).toBe(0);
    expect((await getDb().posts.get(POST))?.alts).toEqual(['A cat asleep']);
  });

  it('switching the warning off leaves it out, and a description over the limit is refused before queueing', async () => {
    mockFetch(answer);
    render();
    await waitFor(() => expect(textbox()).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(textbox(), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Content warning' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Content warning' }), { target: { value: 'spoilers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Content warning' }));
    expect(screen.queryByRole('textbox', { name: 'Content warning' })).toBeNull();
    attachFiles([pngFile('cat.png')]);
    // The field's own maxLength stops typing; a draft written elsewhere may still hold more.
    fireEvent.change(screen.getByRole('textbox', { name: 'Image description' }), { target: { value: 'x'.repeat(LIMITS.imageAltMaxLength + 1) } });
    fireEvent.keyDown(textbox(), { key: 'Enter', ctrlKey: true });
    expect(screen.getByRole('alert')).toHaveTextContent('An image description can be at most 1500 characters long.');
    expect(await getDb().outbox.count()).toBe(0);
    fireEvent.change(screen.getByRole('textbox', { name: 'Image description' }), { target: { value: 'fine' } });
    fireEvent.keyDown(textbox(), { key: 'Enter', ctrlKey: true });
    await waitFor(async () => expect(await getDb().outbox.count()).toBe(1));
    const [row] = await getDb().outbox.toArray();
    expect(row!.kind === 'post' && 'contentWarning' in row!.payload ? row!.payload.contentWarning : undefined).toBeUndefined();
    expect(row!.images[0]!.alt).toBe('fine');
  });
});
