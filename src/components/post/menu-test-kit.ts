import { afterEach, beforeEach } from 'vitest';
import type { Post } from '../../lib/api/types';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { apiPost, mockFetch, startOffline } from '../../test/local-first';

/** Bob's post, seen by Alice offline: the menu offers her its entries on someone else's post. */
export const bobsPost = apiPost('p1', { text: 'Hello', author: { username: 'bob', pfp: 'u2' } }) as Post;

export function setUpMenuCard(): void {
  beforeEach(async () => {
    await startOffline('alice', 'u1');
    mockFetch(() => ({ body: {} }));
  });
  afterEach(() => cancelScheduledSend());
}
