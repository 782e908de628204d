import { describe, expect, it } from 'vitest';
import { CLIENT_NOTIFICATION_TYPES, clientNotificationType, selectKinds } from './client-notifications';
import { NOTIFICATION_TYPES } from './limits';

describe('client notification types', () => {
  it.each([
    ['NEW_FOLLOWER', false, 'follow'],
    ['GROUP_JOIN_REQUEST', false, 'follow_request'],
    ['MENTION', false, 'mention'],
    ['COMMENT_MENTION', true, 'mention'],
    ['NEW_REPLY', true, 'mention'],
    ['NEW_REPLY', false, 'status'],
    ['NEW_POST', false, 'status'],
    ['GROUP_POST', false, 'status'],
    ['GROUP_JOIN_ACCEPT', false, 'kruh.join_accepted'],
    ['GROUP_JOIN_DENY', false, 'kruh.join_denied'],
    ['NEW_MEMBER', false, 'kruh.new_member'],
    ['MADE_ADMIN', false, 'kruh.made_admin'],
    ['REVOKED_ADMIN', false, 'kruh.revoked_admin'],
    ['MADE_OWNER', false, 'kruh.made_owner'],
    ['NEW_MESSAGE', false, 'kruh.message'],
  ] as const)('%s (about a comment: %s) reads as %s', (kind, aboutComment, type) => {
    expect(clientNotificationType(kind, aboutComment)).toBe(type);
  });

  it('gives every kind a known type whatever it is about', () => {
    for (const kind of NOTIFICATION_TYPES) {
      for (const aboutComment of [true, false]) expect(CLIENT_NOTIFICATION_TYPES).toContain(clientNotificationType(kind, aboutComment));
    }
  });

  it('selects every kind when no type is named', () => {
    expect(selectKinds([], [])).toEqual({ kinds: [...NOTIFICATION_TYPES], split: [] });
  });

  it('selects the kinds of the types named, a reply by its side', () => {
    expect(selectKinds(['mention'], [])).toEqual({ kinds: ['MENTION', 'COMMENT_MENTION'], split: [{ kind: 'NEW_REPLY', aboutComment: true }] });
    expect(selectKinds(['status'], [])).toEqual({ kinds: ['NEW_POST', 'GROUP_POST'], split: [{ kind: 'NEW_REPLY', aboutComment: false }] });
    expect(selectKinds(['mention', 'status'], [])).toEqual({ kinds: ['NEW_REPLY', 'NEW_POST', 'MENTION', 'COMMENT_MENTION', 'GROUP_POST'], split: [] });
    expect(selectKinds(['follow', 'kruh.made_owner'], [])).toEqual({ kinds: ['NEW_FOLLOWER', 'MADE_OWNER'], split: [] });
  });

  it('leaves out the excluded types, from the named ones or from all', () => {
    expect(selectKinds(['follow', 'mention'], ['mention'])).toEqual({ kinds: ['NEW_FOLLOWER'], split: [] });
    const all = selectKinds([], ['status', 'follow_request']);
    expect(all.kinds).not.toContain('NEW_POST');
    expect(all.kinds).not.toContain('GROUP_JOIN_REQUEST');
    expect(all.kinds).toContain('MENTION');
    expect(all.split).toEqual([{ kind: 'NEW_REPLY', aboutComment: true }]);
  });

  it('selects nothing for types it does not know', () => {
    expect(selectKinds(['reblog', 'favourite'], [])).toEqual({ kinds: [], split: [] });
  });
});
