import { isId } from '../../lib/ids.js';

/**
 * The ids the client API gives Kruh's things. People and posts keep their own ids; a group's
 * account and a comment's status take a letter before theirs, so a group never reads as a person,
 * nor a comment as a post, and the letter says which table to look in.
 */

/** isId as a plain test, so a failed one leaves the value a string. */
const plainId = (value: string): boolean => isId(value);

const GROUP = 'g';
const COMMENT = 'c';

export const groupAccountId = (groupId: string) => `${GROUP}${groupId}`;
export const commentStatusId = (commentId: string) => `${COMMENT}${commentId}`;

/** What an account id names: a person, a group, or nothing here. */
export type AccountRef = { kind: 'person'; id: string } | { kind: 'group'; id: string } | null;

export function accountRefOf(id: string): AccountRef {
  if (plainId(id)) return { kind: 'person', id };
  if (id.startsWith(GROUP) && plainId(id.slice(GROUP.length))) return { kind: 'group', id: id.slice(GROUP.length) };
  return null;
}

/** What a status id names: a post, a comment, or nothing here. */
export type StatusRef = { kind: 'post'; id: string } | { kind: 'comment'; id: string } | null;

export function statusRefOf(id: string): StatusRef {
  if (plainId(id)) return { kind: 'post', id };
  if (id.startsWith(COMMENT) && plainId(id.slice(COMMENT.length))) return { kind: 'comment', id: id.slice(COMMENT.length) };
  return null;
}
