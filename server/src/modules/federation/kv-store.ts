import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Executor } from '../../db/schema.js';

/**
 * Fedify's key-value store in the database: what it remembers (activity ids already handled, so a
 * delivery that comes twice is handled once; fetched documents) holds for every server process of
 * the instance, not just the one that saw it. A key's parts are joined by a character no part holds
 * in practice (a unit separator); a value is JSON; an expired row reads as missing and is pruned
 * when written over.
 */
const SEPARATOR = '\u001f';
const keyText = (key: KvKey) => key.join(SEPARATOR);

export class DatabaseKvStore implements KvStore {
  constructor(private readonly db: Executor) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.db.selectFrom('federation_kv').select(['value', 'expires_at']).where('key', '=', keyText(key)).executeTakeFirst();
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= Date.now())) return undefined;
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const now = Date.now();
    const expires = options?.ttl ? now + options.ttl.total('millisecond') : null;
    const row = { key: keyText(key), value: JSON.stringify(value), expires_at: expires };
    await this.db
      .insertInto('federation_kv')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, expires_at: row.expires_at }))
      .execute();
    // Expired rows go a few at a time, on writes, so the table stays the size of what is live.
    await this.db
      .deleteFrom('federation_kv')
      .where('key', 'in', (eb) => eb.selectFrom('federation_kv').select('key').where('expires_at', '<=', now).limit(20))
      .execute();
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.deleteFrom('federation_kv').where('key', '=', keyText(key)).execute();
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const now = Date.now();
    let query = this.db.selectFrom('federation_kv').select(['key', 'value', 'expires_at']).orderBy('key');
    if (prefix?.length) {
      const start = keyText(prefix);
      query = query.where((eb) => eb.or([eb('key', '=', start), eb.and([eb('key', '>=', start + SEPARATOR), eb('key', '<', start + String.fromCharCode(0x20))])]));
    }
    for (const row of await query.execute()) {
      if (row.expires_at !== null && Number(row.expires_at) <= now) continue;
      yield { key: row.key.split(SEPARATOR) as unknown as KvKey, value: JSON.parse(row.value) };
    }
  }
}
