import { type Kysely, sql } from 'kysely';
import { onPostgres } from './table-shapes.js';

/**
 * A post's group tag no longer goes with its group by cascade: a group row can be deleted only
 * after its posts have been untagged (public group) or deleted (private group). A tag that vanished
 * with its group would leave the post untagged, and an untagged post is public, so any path that
 * drops a group without going through the group's deletion (an owner's account cascading to the
 * group it still owns) now fails instead of publishing what was written for members.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await setGroupTagAction(db, 'restrict');
}

export async function down(db: Kysely<any>): Promise<void> {
  await setGroupTagAction(db, 'cascade');
}

type Action = 'restrict' | 'cascade';

async function setGroupTagAction(db: Kysely<any>, action: Action): Promise<void> {
  if (onPostgres(db)) await setOnPostgres(db, action);
  else await setOnSqlite(db, action);
}

async function setOnPostgres(db: Kysely<any>, action: Action): Promise<void> {
  // The base migration left the constraint its default name; looked up rather than assumed.
  const { rows } = await sql<{ name: string }>`
    select c.conname as name from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.conrelid = 'post_groups'::regclass and c.confrelid = 'groups'::regclass and a.attname = 'group_id'
  `.execute(db);
  for (const { name } of rows) await sql`alter table post_groups drop constraint ${sql.id(name)}`.execute(db);
  await sql`alter table post_groups add constraint post_groups_group_id_fkey
    foreign key (group_id) references "groups" (id) on delete ${sql.raw(action)}`.execute(db);
}

/**
 * SQLite cannot change a foreign key in place: the table is rebuilt from its own definition with
 * the group's action swapped, its rows copied, and its indexes created again as they were.
 */
async function setOnSqlite(db: Kysely<any>, action: Action): Promise<void> {
  const from = action === 'restrict' ? 'cascade' : 'restrict';
  const { rows } = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = 'post_groups' and sql is not null
  `.execute(db);
  const table = rows.find((row) => row.type === 'table');
  if (!table) throw new Error('post_groups is missing');
  const clause = new RegExp(`("group_id"[^,]*references "groups" \\("id"\\) on delete) ${from}`, 'i');
  if (!clause.test(table.sql)) throw new Error(`post_groups.group_id does not read "on delete ${from}"`);
  const rebuilt = table.sql.replace(clause, `$1 ${action}`).replace(/^create table "post_groups"/i, 'create table "post_groups_next"');
  // In one transaction, so a failure halfway leaves the table as it was.
  await db.transaction().execute(async (trx) => {
    await sql.raw(rebuilt).execute(trx);
    await sql`insert into post_groups_next select * from post_groups`.execute(trx);
    await sql`drop table post_groups`.execute(trx);
    await sql`alter table post_groups_next rename to post_groups`.execute(trx);
    for (const index of rows.filter((row) => row.type === 'index')) await sql.raw(index.sql).execute(trx);
  });
}
