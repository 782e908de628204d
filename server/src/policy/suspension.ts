import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * What a suspended account wrote is hidden from everyone: its posts (through the post visibility
 * rule, so every listing of posts, a post's page and the comments under it follow), its comments
 * and its profile. These are the one place that says so; each read path adds the one that fits.
 * A suspended user cannot sign in, so there is no "except for themselves".
 */

/** The user named by a column of the outer query is not suspended (a deleted author's null passes). */
export function userNotSuspended(userIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from users sus_u where sus_u.id = ${sql.ref(userIdColumn)} and sus_u.suspended_at is not null)`;
}

/** The author of the post named by a column of the outer query is not suspended. */
export function postAuthorNotSuspended(postIdColumn: string): RawBuilder<SqlBool> {
  // One line: the statement logs and plan tests read SQL line by line.
  return sql<SqlBool>`not exists (select 1 from posts sus_p join users sus_u on sus_u.id = sus_p.author_id where sus_p.id = ${sql.ref(postIdColumn)} and sus_u.suspended_at is not null)`;
}

/**
 * For a query over `users` itself: the account is not suspended, and is not a sign-up waiting for
 * the moderators' approval or refused by them (such an account has written nothing, and is listed
 * nowhere until approved).
 */
export const accountNotSuspended = (usersTable = 'users'): RawBuilder<SqlBool> =>
  // One line: the statement logs and plan tests read SQL line by line.
  sql<SqlBool>`${sql.ref(`${usersTable}.suspended_at`)} is null and not exists (select 1 from registration_applications sus_ra where sus_ra.user_id = ${sql.ref(`${usersTable}.id`)} and sus_ra.status <> 'approved')`;
