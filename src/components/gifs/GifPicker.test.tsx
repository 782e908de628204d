import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { clearLocalData, getDb } from '../../lib/db/db';
import { draftKeys } from '../../lib/drafts/drafts';
import { listKeys, storedListKey } from '../../lib/query/keys';
import { storeSession } from '../../lib/session';
import { getToasts } from '../../lib/toast';
import { attachFiles, pngFile, useTestFiles } from '../../test/files';
import { setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import ComposePage from '../../features/compose/ComposePage';
import { GifButton } from './GifButton';
import { GifPicker } from './GifPicker';

const GIF_BYTES = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);

const gif = (id: string, tags = ['cat']) => ({
  id,
  url: `https://media.tenor.com/${id}/full.gif`,
  preview: `https://media.tenor.com/${id}/tiny.gif`,
  dims: [200, 100],
  tags,
});

interface Call {
  path: string;
  params: URLSearchParams;
  method: string;
  body: unknown;
  headers: Record<string, string>;
  at: number;
}

type Answer = { status?: number; body?: unknown } | Error | Response;

/** The GIF file's answer: its bytes. */
const gifFile = () => new Response(GIF_BYTES, { status: 200, headers: { 'Content-Type': 'image/gif' } });

/** A fetch stub for the GIF routes; `override` answers a path differently (possibly later). */
function stubGifApi(override: Record<string, (call: Call) => Answer | Promise<Answer>> = {}) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      path: url.pathname,
      params: url.searchParams,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: { ...(init.headers as Record<string, string>) },
      at: Date.now(),
    };
    calls.push(call);
    const custom = override[call.path];
    const answer: Answer = await (custom
      ? custom(call)
      : call.path === '/api/config'
        ? { body: { googleClientId: null, tenorEnabled: true } }
        : call.path === '/api/gif/categories'
          ? { body: { categories: [{ name: 'excited', searchterm: 'excited', image: 'https://media.tenor.com/c/excited.gif' }] } }
          : call.path === '/api/gif/search'
            ? { body: { results: [gif(`s-${call.params.get('q')}`), gif('s2', [])], next: '' } }
            : call.path === '/api/gif/featured'
              ? { body: { results: [gif('f1', ['trend'])], next: '' } }
              : call.path === '/api/gif/share'
                ? { status: 204 }
                : call.path === '/api/gif/file'
                  ? gifFile()
                  : { status: 404, body: { message: 'error/server_error' } });
    if (answer instanceof Error) throw answer;
    if (answer instanceof Response) return answer;
    const status = answer.status ?? 200;
    return new Response(status === 204 || answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  const of = (path: string) => calls.filter((c) => c.path === path);
  return { calls, of };
}

afterEach(() => {
  vi.unstubAllGlobals();
  setOnline(true);
});

describe('GifPicker', () => {
  it('shows categories, searches after the pause, and hands the chosen GIF over as a file', async () => {
    storeSession('tok', 'alice', 'u1');
    const api = stubGifApi();
    const onSelect = vi.fn();
    renderWithApp(<GifPicker onSelect={onSelect} />);

    expect(await screen.findByRole('button', { name: /excited/i }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Trending' })).toBeInTheDocument();
    expect(api.of('/api/gif/categories')[0]!.params.get('locale')).toBe('en_US');
    const box = screen.getByRole('searchbox', { name: 'Search GIFs' });
    expect(box).toHaveAttribute('maxLength', String(LIMITS.gifQueryMax));

    fireEvent.change(box, { target: { value: 'ca' } });
    await new Promise((r) => setTimeout(r, 300));
    const typedAt = Date.now();
    fireEvent.change(box, { target: { value: 'cat' } });
    await new Promise((r) => setTimeout(r, 400));
    expect(api.of('/api/gif/search')).toHaveLength(0);

    const result = await screen.findByRole('button', { name: 'Attach GIF: cat' }, { timeout: 3000 });
    const searches = api.of('/api/gif/search');
    expect(searches).toHaveLength(1);
    expect(searches[0]!.params.get('q')).toBe('cat');
    expect(searches[0]!.at - typedAt).toBeGreaterThanOrEqual(LIMITS.gifDebounceMs - 20);
    expect(result.querySelector('img')).toHaveAttribute('src', 'https://media.tenor.com/s-cat/tiny.gif');
    expect(result.querySelector('img')!.getAttribute('style')).toContain('aspect-ratio: 200 / 100');

    fireEvent.click(result);
    await waitFor(() => expect(onSelect).toHaveBeenCalledTimes(1));
    const file = await (onSelect.mock.calls[0]![0] as Promise<File>);
    expect(file).toBeInstanceOf(Blob);
    expect(file.type).toBe('image/gif');
    expect(file.name).toBe('tenor-s-cat.gif');
    expect(file.size).toBe(GIF_BYTES.length);
    const download = api.of('/api/gif/file')[0]!;
    expect(download.params.get('id')).toBe('s-cat');
    expect(download.headers.Authorization).toBe('Bearer tok');
    await waitFor(() => expect(api.of('/api/gif/share')).toHaveLength(1));
    expect(api.of('/api/gif/share')[0]!.body).toEqual({ id: 's-cat', q: 'cat', locale: 'en_US' });
  });

  it('searches a category at once, shows trending, and goes back to categories', async () => {
    const api = stubGifApi();
    renderWithApp(<GifPicker onSelect={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: /excited/i }, { timeout: 3000 }));
    await screen.findByRole('button', { name: 'Attach GIF: cat' }, { timeout: 500 });
    expect(api.of('/api/gif/search')[0]!.params.get('q')).toBe('excited');
    expect(screen.getByRole('searchbox')).toHaveValue('excited');

    fireEvent.click(screen.getByRole('button', { name: 'Back to categories' }));
    expect(screen.getByRole('searchbox')).toHaveValue('');
    fireEvent.click(screen.getByRole('button', { name: 'Trending' }));
    expect(await screen.findByRole('button', { name: 'Attach GIF: trend' })).toBeInTheDocument();
    expect(api.of('/api/gif/featured')).toHaveLength(1);
    // A GIF without tags still has a name.
    fireEvent.click(screen.getByRole('button', { name: 'Back to categories' }));
    expect(await screen.findByRole('button', { name: /excited/i }, { timeout: 3000 })).toBeInTheDocument();
  });

  it('loads the next page of results with the `pos` cursor the last page gave', async () => {
    const api = stubGifApi({
      '/api/gif/featured': (call) =>
        call.params.get('pos') === 'P2'
          ? { body: { results: [gif('f1', ['trend']), gif('f2', ['second'])], next: '' } }
          : { body: { results: [gif('f1', ['trend'])], next: 'P2' } },
    });
    renderWithApp(<GifPicker onSelect={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Trending' }, { timeout: 3000 }));
    expect(await screen.findByRole('button', { name: 'Attach GIF: trend' })).toBeInTheDocument();
    expect(api.of('/api/gif/featured')[0]!.params.has('pos')).toBe(false);

    fireEvent.click(await screen.findByRole('button', { name: 'More GIFs' }));
    expect(await screen.findByRole('button', { name: 'Attach GIF: second' })).toBeInTheDocument();
    expect(api.of('/api/gif/featured').map((c) => c.params.get('pos'))).toEqual([null, 'P2']);
    // A GIF on both pages is shown once, and the last page offers no more.
    expect(screen.getAllByRole('button', { name: /^Attach GIF/ })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'More GIFs' })).toBeNull();
    // Paged by the shared engine: both pages are kept under the list's key, the cursor with the first.
    const pages = await getDb().feedPages.where('feedKey').equals(storedListKey(listKeys.gifResults(null, 'en_US'))).sortBy('page');
    expect(pages.map((p) => [p.page, p.cursor, p.hasMore])).toEqual([[1, 'P2', true], [2, undefined, false]]);
  });

  it('speaks Czech and still asks Tenor for the one en_US catalogue', async () => {
    const api = stubGifApi();
    renderWithApp(<GifPicker onSelect={() => undefined} />, { lng: 'cs' });
    expect(await screen.findByRole('button', { name: 'Populární' })).toBeInTheDocument();
    expect(api.of('/api/gif/categories')[0]!.params.get('locale')).toBe('en_US');
  });

  it('says it is offline instead of calling the server', async () => {
    setOnline(false);
    const api = stubGifApi();
    renderWithApp(<GifPicker onSelect={() => undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('You are offline.');
    expect(api.calls).toHaveLength(0);
    setOnline(true);
    fireEvent(window, new Event('online'));
    expect(await screen.findByRole('button', { name: /excited/i }, { timeout: 3000 })).toBeInTheDocument();
  });

  it('shows the offline message when a call gets no answer', async () => {
    stubGifApi({ '/api/gif/categories': () => new TypeError('Failed to fetch') });
    renderWithApp(<GifPicker onSelect={() => undefined} />);
    expect(await screen.findByText(/You are offline/)).toBeInTheDocument();
  });

  it('hands over a refused download as its refusal, and does not report it used', async () => {
    const api = stubGifApi({ '/api/gif/file': () => ({ status: 413, body: { message: 'error/image_too_large' } }) });
    const onSelect = vi.fn();
    renderWithApp(<GifPicker onSelect={onSelect} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Trending' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Attach GIF: trend' }));
    await expect(onSelect.mock.calls[0]![0]).rejects.toMatchObject({ key: 'image_too_large' });
    expect(api.of('/api/gif/share')).toHaveLength(0);
  });
});

describe('GifButton', () => {
  it('is absent when the deployment has no GIF service', async () => {
    const api = stubGifApi({ '/api/config': () => ({ body: { googleClientId: null, tenorEnabled: false } }) });
    renderWithApp(<GifButton onSelect={() => undefined} />);
    await waitFor(() => expect(api.of('/api/config')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'GIF' })).not.toBeInTheDocument();
  });

  it('stays offered offline when the service was on at the last answer', async () => {
    localStorage.setItem('kruh.gifsEnabled', 'true');
    setOnline(false);
    stubGifApi({ '/api/config': () => new TypeError('Failed to fetch') });
    renderWithApp(<GifButton onSelect={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'GIF' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('You are offline.');
  });

  it('opens the picker in the overlay and closes it after a choice', async () => {
    stubGifApi();
    const onSelect = vi.fn();
    renderWithApp(<GifButton onSelect={onSelect} />);
    fireEvent.click(await screen.findByRole('button', { name: 'GIF' }));
    const dialog = screen.getByRole('dialog', { name: 'Choose a GIF' });
    expect(dialog).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Trending' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Attach GIF: trend' }));
    await waitFor(() => expect(onSelect).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the composer with a GIF', () => {
  const routes = [{ path: '/', element: <p>home</p> }];
  const thumbnails = () => [...document.querySelectorAll('.compose-images img')].map((img) => img.getAttribute('src'));

  beforeEach(async () => {
    // Thumbnails named by their file, so the test can tell which ones show.
    useTestFiles((blob) => `blob:${(blob as File).name}`);
    storeSession('t1', 'me', 'u9');
    await clearLocalData();
  });

  it('attaches a picked GIF alone: it replaces photos, and photos replace it', async () => {
    stubGifApi({ '/api/auth/test': () => ({ body: { message: 'ok' } }) });
    renderWithApp(<ComposePage />, { route: '/post', path: '/post', routes });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'What is on your mind?' })).toBeEnabled(), { timeout: 5000 });

    attachFiles([pngFile('photo.png')]);
    await waitFor(() => expect(thumbnails()).toEqual(['blob:photo.png']));

    fireEvent.click(await screen.findByRole('button', { name: 'GIF' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Trending' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Attach GIF: trend' }));
    await waitFor(() => expect(thumbnails()).toEqual(['blob:tenor-f1.gif']));
    // The draft (saved after a short delay) holds the GIF alone, to be uploaded like a photo.
    await waitFor(async () => {
      const draft = await getDb().drafts.get(draftKeys.post());
      expect(draft?.images.map((i) => [i.name, i.blob.type])).toEqual([['tenor-f1.gif', 'image/gif']]);
    }, { timeout: 3000 });

    attachFiles([1, 2].map((i) => pngFile(`${i}.png`)));
    await waitFor(() => expect(thumbnails()).toEqual(['blob:1.png', 'blob:2.png']));
  });

  const pickTrending = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'GIF' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Trending' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Attach GIF: trend' }));
  };

  it('closes the picker at once and holds the post until the GIF has arrived', async () => {
    let arrive = () => {};
    const api = stubGifApi({
      '/api/auth/test': () => ({ body: { message: 'ok' } }),
      '/api/gif/file': () => new Promise<Answer>((resolve) => (arrive = () => resolve(gifFile()))),
    });
    renderWithApp(<ComposePage />, { route: '/post', path: '/post', routes });
    const text = screen.getByRole('textbox', { name: 'What is on your mind?' });
    await waitFor(() => expect(text).toBeEnabled(), { timeout: 5000 });
    fireEvent.change(text, { target: { value: 'look' } });
    await pickTrending();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Attaching…')).toBeInTheDocument();

    const before = getToasts().length;
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please wait until the media finish loading.');
    expect(getToasts().slice(before)).toEqual([expect.objectContaining({ kind: 'error', message: 'error/wait_media' })]);
    expect(await getDb().outbox.count()).toBe(0);

    arrive();
    await waitFor(() => expect(thumbnails()).toEqual(['blob:tenor-f1.gif']));
    expect(screen.queryByText('Attaching…')).not.toBeInTheDocument();
    // Queued only: the send itself is the outbox's.
    setOnline(false);
    fireEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('home')).toBeInTheDocument();
    expect((await getDb().outbox.toArray())[0]?.images.map((i) => i.name)).toEqual(['tenor-f1.gif']);
    await waitFor(() => expect(api.of('/api/gif/share')).toHaveLength(1));
  });

  it('says in the editor why a picked GIF could not be fetched, and attaches nothing', async () => {
    stubGifApi({
      '/api/auth/test': () => ({ body: { message: 'ok' } }),
      '/api/gif/file': () => ({ status: 413, body: { message: 'error/image_too_large' } }),
    });
    renderWithApp(<ComposePage />, { route: '/post', path: '/post', routes });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'What is on your mind?' })).toBeEnabled(), { timeout: 5000 });
    await pickTrending();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The image is too large.'));
    expect(thumbnails()).toEqual([]);
  });
});
