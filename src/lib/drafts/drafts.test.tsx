import '../../test/setup';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCloneableBlobs } from '../../test/local-first';
import { getDb, clearLocalData, openDb } from '../db/db';
import { storeSession } from '../session';
import {
  type DraftContent,
  DRAFT_SAVE_DELAY_MS,
  clearDraft,
  draftKeys,
  emptyDraft,
  isEmptyDraft,
  loadDraft,
  returnToDrafts,
  saveDraft,
  useDraft,
  useReturnedDrafts,
} from './drafts';

beforeEach(async () => {
  useCloneableBlobs();
  storeSession('t1', 'alice', 'u1');
  await clearLocalData();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const content = (change: Partial<DraftContent> = {}): DraftContent => ({ ...emptyDraft(), ...change });
const image = () => ({ blob: new Blob(['png'], { type: 'image/png' }), name: 'a.png' });

/** The post draft once read, every write of it failing (disk full), the console's errors watched. */
async function draftFailingToWrite() {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const hook = renderHook(() => useDraft('post'));
  await waitFor(() => expect(hook.result.current.ready).toBe(true));
  const failure = Object.assign(new Error('disk full'), { name: 'QuotaExceededError' });
  vi.spyOn(getDb().drafts, 'put').mockRejectedValue(failure);
  return { logged, hook, failure };
}

describe('draft keys', () => {
  it('keys the composer by what it replies to and its preset group, and each comment box by its parent', () => {
    expect(draftKeys.post()).toBe('post');
    expect(draftKeys.post({ rep: null, g: null })).toBe('post');
    expect(draftKeys.post({ rep: 'p1' })).toBe('post:rep=p1');
    expect(draftKeys.post({ g: 'cats' })).toBe('post:g=cats');
    expect(draftKeys.post({ rep: 'p1', g: 'cats' })).toBe('post:rep=p1:g=cats');
    expect(draftKeys.comment('c1')).toBe('comment:c1');
  });
});

describe('empty drafts', () => {
  it('starts empty', () => {
    expect(emptyDraft()).toEqual({ text: '', mentions: [], groups: [], images: [] });
    expect(isEmptyDraft(emptyDraft())).toBe(true);
  });

  it('counts blank text and preset groups as nothing written', () => {
    expect(isEmptyDraft(content({ text: ' \n\t ' }))).toBe(true);
    expect(isEmptyDraft(content({ groups: [{ query: 'cats', id: null, locked: true }] }))).toBe(true);
  });

  it('counts text, a mention, a chosen group or an image as something written', () => {
    expect(isEmptyDraft(content({ text: 'x' }))).toBe(false);
    expect(isEmptyDraft(content({ mentions: [{ query: 'bob', id: null }] }))).toBe(false);
    expect(isEmptyDraft(content({ groups: [{ query: 'cats', id: null, locked: true }, { query: 'dogs', id: 'g2' }] }))).toBe(false);
    expect(isEmptyDraft(content({ images: [image()] }))).toBe(false);
  });
});

describe('saving drafts', () => {
  it('stores a draft with something written and deletes one emptied', async () => {
    await saveDraft('post', content({ text: 'x' }));
    expect(await loadDraft('post')).toMatchObject({ key: 'post', text: 'x' });
    await saveDraft('post', content({ text: '   ' }));
    expect(await loadDraft('post')).toBeUndefined();
  });

  it('keeps an emptied draft that came back refused, so the reason stays on screen', async () => {
    await saveDraft('post', content({ returnedError: 'banned' }));
    expect(await loadDraft('post')).toMatchObject({ returnedError: 'banned' });
    await clearDraft('post');
    expect(await loadDraft('post')).toBeUndefined();
  });

  it('returns a refused item in place of an empty draft, and beside one holding new work', async () => {
    const refused = content({ text: 'refused', returnedError: 'banned' });
    expect(await returnToDrafts('post', refused, 'id1')).toBe('post');
    expect(await loadDraft('post')).toMatchObject({ text: 'refused' });

    await saveDraft('comment:c1', content({ groups: [{ query: 'cats', id: null, locked: true }], returnedError: 'banned' }));
    expect(await returnToDrafts('comment:c1', refused, 'id2')).toBe('comment:c1');

    expect(await returnToDrafts('post', content({ text: 'second refusal' }), 'id3')).toBe('post#id3');
    expect(await loadDraft('post')).toMatchObject({ text: 'refused' });
    expect(await loadDraft('post#id3')).toMatchObject({ text: 'second refusal' });
  });

  it("lists the drafts returned beside a composer's, and only those", async () => {
    await saveDraft('post', content({ text: 'main' }));
    await saveDraft('post#a', content({ text: 'returned a' }));
    await saveDraft('post#b', content({ text: 'returned b' }));
    await saveDraft('post:rep=p1#c', content({ text: 'another composer' }));
    const { result } = renderHook(() => useReturnedDrafts('post'));
    await waitFor(() => expect(result.current.map((d) => d.text)).toEqual(['returned a', 'returned b']));
  });

  it('lists no returned drafts until they were read', async () => {
    await saveDraft('post#a', content({ text: 'returned a' }));
    const { result } = renderHook(() => useReturnedDrafts('post'));
    expect(result.current).toEqual([]);
    await waitFor(() => expect(result.current.map((d) => d.text)).toEqual(['returned a']));
  });

  it('lists the returned drafts of the new composer when its key changes', async () => {
    await saveDraft('post#a', content({ text: 'returned to the composer' }));
    await saveDraft('comment:c1', content({ text: 'main comment' }));
    await saveDraft('comment:c1#b', content({ text: 'returned to the comment box' }));
    const { result, rerender } = renderHook(({ draftKey }) => useReturnedDrafts(draftKey), { initialProps: { draftKey: 'post' } });
    await waitFor(() => expect(result.current.map((d) => d.key)).toEqual(['post#a']));
    rerender({ draftKey: 'comment:c1' });
    await waitFor(() => expect(result.current.map((d) => d.key)).toEqual(['comment:c1#b']));
  });
});

describe('useDraft', () => {
  it('autosaves text, slots and images and restores them after a reload', async () => {
    const key = draftKeys.post();
    const first = renderHook(() => useDraft(key));
    await waitFor(() => expect(first.result.current.ready).toBe(true));
    act(() => {
      first.result.current.update({
        text: 'half-written',
        mentions: [{ query: 'bob', id: 'u2' }],
        images: [{ blob: new Blob(['pixels'], { type: 'image/png' }), name: 'cat.png' }],
      });
    });
    // Debounced: written after the pause, without any explicit save.
    await waitFor(async () => expect((await loadDraft(key))?.text).toBe('half-written'), { timeout: 2000 });
    first.unmount();

    // A "reload": a fresh connection to the same database, then a fresh hook.
    const reopened = openDb(getDb().name);
    const stored = await reopened.drafts.get(key);
    expect(stored).toMatchObject({ text: 'half-written', mentions: [{ query: 'bob', id: 'u2' }] });
    expect(await stored!.images[0]!.blob.text()).toBe('pixels');
    reopened.close();

    const second = renderHook(() => useDraft(key));
    await waitFor(() => expect(second.result.current.ready).toBe(true));
    expect(second.result.current.draft.text).toBe('half-written');
    expect(second.result.current.draft.images[0]?.name).toBe('cat.png');

    await act(() => second.result.current.clear());
    expect(await loadDraft(key)).toBeUndefined();
  });

  it('writes a pending change when the editor goes away before the pause ends', async () => {
    const key = draftKeys.comment('p1');
    const hook = renderHook(() => useDraft(key));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => hook.result.current.update({ text: 'quick' }));
    await act(() => vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 100));
    hook.unmount();
    // The pause never ends: its timer is dropped with the fake clock.
    vi.useRealTimers();
    await waitFor(async () => expect((await loadDraft(key))?.text).toBe('quick'));
  });
});

describe('useDraft, more', () => {
  it('shows its seed at once and keeps it when nothing is stored', async () => {
    const seed = content({ groups: [{ query: 'cats', id: null, locked: true }] });
    const hook = renderHook(() => useDraft('post:g=cats', seed));
    expect(hook.result.current.draft).toBe(seed);
    expect(hook.result.current.ready).toBe(false);
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    expect(hook.result.current.draft).toEqual(seed);
  });

  it('starts empty without a seed', async () => {
    const hook = renderHook(() => useDraft('post'));
    expect(hook.result.current.draft).toEqual(emptyDraft());
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    expect(hook.result.current.draft).toEqual(emptyDraft());
  });

  it('restores the reason a returned draft was refused', async () => {
    await saveDraft('post', content({ text: 'came back', returnedError: 'banned' }));
    const hook = renderHook(() => useDraft('post', content({ text: 'seed' })));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    expect(hook.result.current.draft).toEqual({ text: 'came back', mentions: [], groups: [], images: [], returnedError: 'banned' });
  });

  it('restores a content warning, also one switched on but not written yet', async () => {
    await saveDraft('post', content({ text: 'careful', contentWarning: 'spiders' }));
    await saveDraft('post:rep=p1', content({ text: 'careful', contentWarning: '' }));
    const warned = renderHook(() => useDraft('post'));
    const switchedOn = renderHook(() => useDraft('post:rep=p1'));
    await waitFor(() => expect(warned.result.current.ready && switchedOn.result.current.ready).toBe(true));
    expect(warned.result.current.draft).toEqual(content({ text: 'careful', contentWarning: 'spiders' }));
    expect(switchedOn.result.current.draft).toEqual(content({ text: 'careful', contentWarning: '' }));
  });

  it('waits for a pause in typing before writing', async () => {
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => hook.result.current.update({ text: 'a' }));
    await act(() => vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 100));
    act(() => hook.result.current.update((d) => ({ text: `${d.text}b` })));
    await act(() => vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 100));
    expect(await loadDraft('post')).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(100));
    vi.useRealTimers();
    await waitFor(async () => expect((await loadDraft('post'))?.text).toBe('ab'));
  });

  it('merges a change into what is there, and writes it when flushed', async () => {
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    act(() => hook.result.current.update({ text: 'text' }));
    act(() => hook.result.current.update((d) => ({ mentions: [{ query: d.text, id: null }] })));
    expect(hook.result.current.draft).toEqual(content({ text: 'text', mentions: [{ query: 'text', id: null }] }));
    await act(() => hook.result.current.flush());
    expect(await loadDraft('post')).toMatchObject({ text: 'text', mentions: [{ query: 'text', id: null }] });
  });

  it('does not erase a stored draft when the editor closes before reading it', async () => {
    await saveDraft('post', content({ text: 'stored' }));
    const hook = renderHook(() => useDraft('post'));
    hook.unmount();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await loadDraft('post')).toMatchObject({ text: 'stored' });
  });

  it('does not write again what it already wrote', async () => {
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    act(() => hook.result.current.update({ text: 'sent from here' }));
    await act(() => hook.result.current.flush());
    // Sent, and its draft removed, by another tab.
    await clearDraft('post');
    hook.unmount();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await loadDraft('post')).toBeUndefined();
  });

  it('leaves nothing stored once cleared, even a seed with content, also after the editor closes', async () => {
    const seed = content({ text: '@bob ' });
    const hook = renderHook(() => useDraft('comment:c1', seed));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    act(() => hook.result.current.update({ text: '@bob hello' }));
    await act(() => hook.result.current.clear());
    expect(hook.result.current.draft).toBe(seed);
    hook.unmount();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await loadDraft('comment:c1')).toBeUndefined();
  });

  it('takes over a returned draft as its own, without its refusal, and removes it', async () => {
    await saveDraft('post#x', content({ text: 'returned', images: [image()], returnedError: 'banned' }));
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    const returned = (await loadDraft('post#x'))!;
    await act(() => hook.result.current.adopt(returned));
    expect(hook.result.current.draft).toMatchObject({ text: 'returned' });
    expect(hook.result.current.draft).not.toHaveProperty('returnedError');
    expect(await loadDraft('post#x')).toBeUndefined();
    const stored = await loadDraft('post');
    expect(stored).toMatchObject({ text: 'returned' });
    expect(stored?.images).toHaveLength(1);
    expect(stored?.returnedError).toBeUndefined();
  });

  it('takes over the content warning of a returned draft, also one switched on but not written yet', async () => {
    for (const contentWarning of ['spiders', '']) {
      await saveDraft('post#x', content({ text: 'returned', contentWarning, returnedError: 'banned' }));
      const hook = renderHook(() => useDraft('post'));
      await waitFor(() => expect(hook.result.current.ready).toBe(true));
      await act(async () => hook.result.current.adopt((await loadDraft('post#x'))!));
      expect(hook.result.current.draft).toEqual(content({ text: 'returned', contentWarning }));
      expect(await loadDraft('post')).toMatchObject({ contentWarning });
      hook.unmount();
      await clearDraft('post');
    }
  });

  it('gives up quietly when the database was closed under the editor (logout)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    act(() => hook.result.current.update({ text: 'typed while logging out' }));
    getDb().close();
    await act(() => hook.result.current.flush());
    expect(logged).not.toHaveBeenCalled();
  });

  it('reports a failure to write other than a closed database', async () => {
    const { logged, hook, failure } = await draftFailingToWrite();
    act(() => hook.result.current.update({ text: 'x' }));
    await expect(hook.result.current.flush()).rejects.toBe(failure);
    act(() => hook.result.current.update({ text: 'y' }));
    hook.unmount();
    await waitFor(() => expect(logged).toHaveBeenCalledWith('draft', failure));
  });

  it('reports a failure to read other than a closed database, and none for a closed one', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('broken');
    const get = vi.spyOn(getDb().drafts, 'get').mockRejectedValueOnce(failure);
    renderHook(() => useDraft('post'));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('draft', failure));
    logged.mockClear();
    get.mockRejectedValueOnce(Object.assign(new Error('closed'), { name: 'DatabaseClosedError' }));
    const second = renderHook(() => useDraft('comment:c1'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.result.current.ready).toBe(false);
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('useDraft when its key changes (a comment box moved to another parent)', () => {
  it('reads, writes, clears and adopts under the new key', async () => {
    await saveDraft('comment:c2', content({ text: 'second box' }));
    const hook = renderHook(({ draftKey }) => useDraft(draftKey), { initialProps: { draftKey: 'comment:c1' } });
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    hook.rerender({ draftKey: 'comment:c2' });
    await waitFor(() => expect(hook.result.current.draft.text).toBe('second box'));
    expect(hook.result.current.ready).toBe(true);

    act(() => hook.result.current.update({ text: 'edited' }));
    await act(() => hook.result.current.flush());
    expect(await loadDraft('comment:c2')).toMatchObject({ text: 'edited' });
    expect(await loadDraft('comment:c1')).toBeUndefined();

    await act(() => hook.result.current.clear());
    expect(await loadDraft('comment:c2')).toBeUndefined();

    await saveDraft('comment:c2#r', content({ text: 'returned' }));
    await act(async () => hook.result.current.adopt((await loadDraft('comment:c2#r'))!));
    expect(await loadDraft('comment:c2')).toMatchObject({ text: 'returned' });
    expect(await loadDraft('comment:c1')).toBeUndefined();
  });
});

describe('useDraft and the pause before writing', () => {
  const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  /** The draft of `key` once read, its writes watched (`written`: their texts), under the fake clock. */
  async function watchedDraft(key: string) {
    const hook = renderHook(() => useDraft(key));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    const put = vi.spyOn(getDb().drafts, 'put');
    const written = () => put.mock.calls.map(([d]) => d.text);
    fakeClock();
    return { hook, put, written };
  }

  it('saves an edit after the pause without closing or flushing the editor', async () => {
    const { hook, put } = await watchedDraft('post');
    act(() => hook.result.current.update({ text: 'left alone' }));
    await advance(DRAFT_SAVE_DELAY_MS);
    expect(put).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
    await waitFor(async () => expect((await loadDraft('post'))?.text).toBe('left alone'));
    expect(hook.result.current.draft.text).toBe('left alone');
  });

  it('makes a change after a flush wait for its own full pause', async () => {
    const { hook, written } = await watchedDraft('post');
    act(() => hook.result.current.update({ text: 'a' }));
    await advance(100);
    await act(() => hook.result.current.flush());
    expect(written()).toEqual(['a']);
    await advance(100);
    act(() => hook.result.current.update({ text: 'ab' }));
    // Past the end of the first change's pause, not of the second's.
    await advance(DRAFT_SAVE_DELAY_MS - 100);
    expect(written()).toEqual(['a']);
    await advance(100);
    expect(written()).toEqual(['a', 'ab']);
    vi.useRealTimers();
    await waitFor(async () => expect((await loadDraft('post'))?.text).toBe('ab'));
  });

  it('drops the pending save when cleared, so a later edit waits for its own full pause', async () => {
    const { hook, written } = await watchedDraft('comment:c1');
    act(() => hook.result.current.update({ text: 'thrown away' }));
    await advance(100);
    await act(() => hook.result.current.clear());
    await advance(100);
    act(() => hook.result.current.update({ text: 'new start' }));
    // Past the end of the cleared change's pause, not of the new one's.
    await advance(DRAFT_SAVE_DELAY_MS - 100);
    expect(written()).toEqual([]);
    expect(await loadDraft('comment:c1')).toBeUndefined();
    await advance(100);
    expect(written()).toEqual(['new start']);
    vi.useRealTimers();
    await waitFor(async () => expect((await loadDraft('comment:c1'))?.text).toBe('new start'));
  });

  it('saves an edit made after the key changed under the new key once the pause ends', async () => {
    const hook = renderHook(({ draftKey }) => useDraft(draftKey), { initialProps: { draftKey: 'comment:c1' } });
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    hook.rerender({ draftKey: 'comment:c2' });
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    fakeClock();
    act(() => hook.result.current.update({ text: 'moved' }));
    await advance(DRAFT_SAVE_DELAY_MS);
    vi.useRealTimers();
    await waitFor(async () => expect((await loadDraft('comment:c2'))?.text).toBe('moved'));
    expect(await loadDraft('comment:c1')).toBeUndefined();
  });

  it('reports a failure to write after the pause', async () => {
    const { logged, hook, failure } = await draftFailingToWrite();
    fakeClock();
    act(() => hook.result.current.update({ text: 'x' }));
    await advance(DRAFT_SAVE_DELAY_MS);
    vi.useRealTimers();
    await waitFor(() => expect(logged).toHaveBeenCalledWith('draft', failure));
  });
});

describe('useDraft and reads that land late or fail oddly', () => {
  it('never shows the draft read for the previous key once the key changed', async () => {
    await saveDraft('comment:c1', content({ text: 'first box' }));
    await saveDraft('comment:c2', content({ text: 'second box' }));
    const drafts = getDb().drafts;
    const realGet = drafts.get.bind(drafts);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lateRead: Promise<unknown> = Promise.resolve();
    vi.spyOn(drafts, 'get').mockImplementationOnce(((key: string) => {
      lateRead = gate.then(() => realGet(key));
      return lateRead;
    }) as typeof drafts.get);

    const hook = renderHook(({ draftKey }) => useDraft(draftKey), { initialProps: { draftKey: 'comment:c1' } });
    hook.rerender({ draftKey: 'comment:c2' });
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    expect(hook.result.current.draft.text).toBe('second box');

    // The first box's read lands only now.
    await act(async () => {
      release();
      await lateRead;
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(hook.result.current.ready).toBe(true);
    expect(hook.result.current.draft.text).toBe('second box');
    act(() => hook.result.current.update((d) => ({ text: `${d.text}, edited` })));
    await act(() => hook.result.current.flush());
    expect(await loadDraft('comment:c2')).toMatchObject({ text: 'second box, edited' });
    expect(await loadDraft('comment:c1')).toMatchObject({ text: 'first box' });
  });

  it('passes on a failure to write as it came, even a rejection without an error', async () => {
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    vi.spyOn(getDb().drafts, 'put').mockRejectedValue(undefined);
    act(() => hook.result.current.update({ text: 'x' }));
    await expect(hook.result.current.flush()).rejects.toBeUndefined();
  });

  it('reports a failure to read as it came, even a rejection without an error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(getDb().drafts, 'get').mockRejectedValueOnce(undefined);
    const hook = renderHook(() => useDraft('post'));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('draft', undefined));
    expect(hook.result.current.ready).toBe(false);
  });
});
