import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrator';
import { REPO } from '../helpers/compiled-build';
import { useTestApp } from '../helpers/test-app';

const read = (file: string) => readFileSync(join(REPO, file), 'utf8');

/**
 * The part of a Markdown text under `heading` (a whole line, or one followed by ` - ` and a date,
 * as a release's heading is), up to the next heading of its level or above.
 */
function section(text: string, heading: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line === heading || line.startsWith(`${heading} - `));
  if (start < 0) return undefined;
  const level = /^#+/.exec(heading)![0].length;
  // A `#` line inside a code block is a shell comment, not a heading.
  let inCode = false;
  const end = lines.findIndex((line, i) => {
    if (line.startsWith('```')) inCode = !inCode;
    return i > start && !inCode && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level;
  });
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/**
 * An operator upgrading reads what changed under the version they move to, and the README's
 * upgrade recipe says what `npm run migrate` does, that there is no way back but a backup, and what
 * to back up first; the refusal it names is what an older version does on a newer database.
 */
describe('releases and upgrades', () => {
  const t = useTestApp();

  it("lists the changes of package.json's version under that version's heading", () => {
    const { version } = JSON.parse(read('package.json')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const changes = section(read('CHANGELOG.md'), `## [${version}]`);
    expect(changes, `CHANGELOG.md has a "## [${version}]" heading`).toBeDefined();
    expect(changes).toMatch(/^- \S/m);
  });

  it('has an Upgrading section in the README: migrate, no backward steps, what to back up first', () => {
    const upgrading = section(read('README.md'), '## Upgrading');
    expect(upgrading).toBeDefined();
    for (const words of ['npm run migrate', 'kysely_migration', 'no backward steps', 'npm run backup', 'pg_dump', '.env', 'CHANGELOG.md']) {
      expect(upgrading, words).toContain(words);
    }
  });

  it('refuses to migrate a database a later version has migrated, as the README says', async () => {
    const later = '99991231_99_from_a_later_version';
    await sql`insert into kysely_migration (name, timestamp) values (${later}, ${new Date().toISOString()})`.execute(t.app.db);
    try {
      await expect(migrateToLatest(t.app.db)).rejects.toThrow(`corrupted migrations: previously executed migration ${later} is missing`);
    } finally {
      await sql`delete from kysely_migration where name = ${later}`.execute(t.app.db);
    }
  });

  it('applies a migration that arrives after a later-named one was applied, once', async () => {
    const names = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(t.app.db)).rows.map((r) => r.name);
    const all = await names();
    const earlier = '20261201_20_instance_settings';
    expect(all.filter((name) => name > earlier).length).toBeGreaterThan(0);
    // A database that upgraded before this migration landed: every later-named one applied, not it.
    await sql`delete from kysely_migration where name = ${earlier}`.execute(t.app.db);
    await t.app.db.schema.dropTable('instance_settings').execute();
    expect(await migrateToLatest(t.app.db)).toEqual([earlier]);
    expect(await names()).toEqual(all);
    expect(await migrateToLatest(t.app.db)).toEqual([]);
  });
});
