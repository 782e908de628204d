import { describe, expect, it } from 'vitest';
import { apiPost } from '../../test/local-first';
import type { Post } from '../../lib/api/types';
import { adminGroupsOf } from './admin-groups';

describe('a post\'s groups in its menu', () => {
  it('offers no ban of the author in a group the author owns', () => {
    const post = apiPost('p1', {
      author: { username: 'owner', pfp: 'u1' },
      groups: [{ _id: 'g1', name: 'cats' }, { _id: 'g2', name: 'dogs' }],
      adminGroups: [0, 1],
      authorOwnedGroups: [0],
    }) as Post;
    expect(adminGroupsOf(post).map((group) => [group.name, group.canBan])).toEqual([['cats', false], ['dogs', true]]);
  });
});
