import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { PersonState } from '#core/api/people';
import { normalizeEmail } from '#core/validation';
import type { Database, Executor } from '../../db/schema.js';
import { dialectOf, lockKey } from '../../db/dialect.js';
import type { PageWindow } from '../../lib/paging.js';
import { escapeLike, searchCondition } from '../../lib/search.js';

type Users = ExpressionBuilder<Database, 'users'>;

/** Each standing the list filters by, as a condition on the account's row. */
const STATES: Record<PersonState, (eb: Users) => Expression<SqlBool>> = {
  active: (eb) => eb.and([eb('users.verified', '=', 1), eb('users.suspended_at', 'is', null)]),
  suspended: (eb) => eb('users.suspended_at', 'is not', null),
  unverified: (eb) => eb('users.verified', '=', 0),
  moderator: (eb) => eb('users.role', '=', 'moderator'),
};

export interface PeopleFilter {
  query?: string | undefined;
  state?: PersonState | undefined;
  before?: number | undefined;
}

/**
 * One page of the instance's own accounts, newest first: a remote account's name holds its host
 * (`name@host`), which a local name may not, so those are left out. The text matches a part of the
 * name (accent- and case-insensitive, as search does) or of the address.
 */
export async function peoplePage(db: Executor, filter: PeopleFilter, window: PageWindow) {
  const text = filter.query?.trim();
  const dialect = dialectOf(db);
  let query = db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'verified', 'suspended_at', 'role', 'created_at'])
    .where('username_lower', 'not like', '%@%');
  if (text) {
    const address = `%${escapeLike(normalizeEmail(text))}%`;
    query = query.where((eb) =>
      eb.or([searchCondition('users', text, dialect), sql<SqlBool>`${eb.ref('users.email')} LIKE ${address} ESCAPE '\\'`]),
    );
  }
  if (filter.state) query = query.where(STATES[filter.state]);
  if (filter.before !== undefined) query = query.where('created_at', '<=', filter.before);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(window.fetch).offset(window.offset).execute();
}

/** The account's role, or undefined when there is no such local account. */
export async function roleOf(db: Executor, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('role').where('id', '=', userId).where('username_lower', 'not like', '%@%').executeTakeFirst();
  return row?.role;
}

/**
 * How many moderators there are, read under a lock every change of the role takes first, so two
 * moderators taking the role from themselves at once cannot leave none (SQLite runs one writer at a
 * time anyway).
 */
export async function lockedModeratorCount(db: Executor): Promise<number> {
  await lockKey(db, 'instance-moderators');
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'moderator').executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setRole(db: Executor, userId: string, role: 'user' | 'moderator'): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', userId).execute();
}
