import { domainToASCII } from 'node:url';
import type { Kysely } from 'kysely';
import { foldForSearch } from '#core/text';

/**
 * Remote hosts in one spelling (lower case, no final dot, an international name in ASCII), as the
 * code now stores and compares them: a block of `evil.example` missed an actor stored on
 * `evil.example.`. Blocks, remote actors' domains and handles, and remote accounts' names (which
 * are their handles) are respelled here. A name another account already holds in the new spelling
 * (two actors of one server, one address with the dot, one without) stays as it was, with its
 * handle; its domain is respelled all the same, so blocks still find it. The spelling is written out
 * here, not imported, so this migration does what it did whatever the code becomes.
 */

function host(raw: string): string | null {
  const bare = raw.replace(/\.+$/, '');
  if (bare.startsWith('[')) return bare.toLowerCase();
  return domainToASCII(bare) || null;
}

function hostOf(address: string): string | null {
  try {
    return host(new URL(address).hostname);
  } catch {
    return null;
  }
}

/** `@name@host[:port]` with its host respelled. */
function handle(raw: string): string {
  const at = raw.indexOf('@', 1);
  if (!raw.startsWith('@') || at < 0) return raw;
  try {
    const url = new URL(`https://${raw.slice(at + 1)}`);
    const name = host(url.hostname) ?? url.hostname;
    return `${raw.slice(0, at)}@${name}${url.port ? `:${url.port}` : ''}`;
  } catch {
    return raw;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const blocks: Array<{ domain: string }> = await db.selectFrom('federation_domain_blocks').select('domain').execute();
  const kept = new Set(blocks.map((row) => row.domain));
  for (const { domain } of blocks) {
    const respelled = host(domain);
    if (!respelled || respelled === domain) continue;
    if (kept.has(respelled)) {
      await db.deleteFrom('federation_domain_blocks').where('domain', '=', domain).execute();
    } else {
      await db.updateTable('federation_domain_blocks').set({ domain: respelled }).where('domain', '=', domain).execute();
      kept.add(respelled);
    }
    kept.delete(domain);
  }

  const actors: Array<{ id: string; domain: string | null; handle: string | null; user_id: string | null }> = await db
    .selectFrom('remote_actors')
    .select(['id', 'domain', 'handle', 'user_id'])
    .execute();
  for (const actor of actors) {
    const domain = hostOf(actor.id) ?? actor.domain;
    let respelled = actor.handle === null ? null : handle(actor.handle);
    if (respelled !== actor.handle && respelled !== null && actor.user_id) {
      const username = respelled.slice(1);
      const holder = await db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).executeTakeFirst();
      if (holder && holder.id !== actor.user_id) {
        respelled = actor.handle;
      } else {
        await db
          .updateTable('users')
          .set({ username, username_lower: username.toLowerCase(), search_text: foldForSearch(username) })
          .where('id', '=', actor.user_id)
          .execute();
      }
    }
    if (domain !== actor.domain || respelled !== actor.handle) {
      await db.updateTable('remote_actors').set({ domain, handle: respelled }).where('id', '=', actor.id).execute();
    }
  }
}

/** The old spellings were the same hosts; nothing to undo. */
export async function down(): Promise<void> {}
