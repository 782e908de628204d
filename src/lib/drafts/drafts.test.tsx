import '../../test/setup';
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCloneableBlobs } from '../../test/local-first';
import { getDb, clearLocalData, openDb } from '../db/db';
import { storeSession } from '../session';
import { draftKeys, loadDraft, useDraft } from './drafts';

beforeEach(async () => {
  useCloneableBlobs();
  storeSession('t1', 'alice', 'u1');
  await clearLocalData();
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
    act(() => hook.result.current.update({ text: 'quick' }));
    hook.unmount();
    await waitFor(async () => expect((await loadDraft(key))?.text).toBe('quick'));
  });
});
