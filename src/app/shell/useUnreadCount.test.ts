import { describe, expect, it } from 'vitest';
import { readStreamCount } from './useUnreadCount';

describe('the unread stream', () => {
  it('reads the count of an event, the {count} the unread call answers', () => {
    expect(readStreamCount(JSON.stringify({ count: 4 }))).toBe(4);
    expect(readStreamCount('{"count":0}')).toBe(0);
  });

  it('finds no count in anything else, so the badge asks the call instead', () => {
    for (const data of ['', 'null', '{"count":"4"}', '{"unread":4}', '{"count":', undefined]) expect(readStreamCount(data)).toBeNull();
  });
});
