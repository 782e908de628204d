import type { Kysely } from 'kysely';
import { createKeyedTable } from './table-shapes.js';

/**
 * Domains the instance moderators cut off from federation: nothing goes to them, nothing is taken
 * from them, and a block covers the domain's subdomains too. `domain` is the host, lower case, as
 * `remote_actors.domain` holds it. Followers stored before remote accounts existed have no domain
 * yet: it is filled in here from their IRI, so a block finds them too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createKeyedTable(db, 'federation_domain_blocks', 'domain')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  const missing: Array<{ id: string }> = await db.selectFrom('remote_actors').select('id').where('domain', 'is', null).execute();
  for (const { id } of missing) {
    let host: string;
    try {
      host = new URL(id).hostname.toLowerCase();
    } catch {
      continue;
    }
    await db.updateTable('remote_actors').set({ domain: host }).where('id', '=', id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('federation_domain_blocks').ifExists().execute();
}
