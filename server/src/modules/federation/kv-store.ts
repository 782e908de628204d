import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Executor } from '../../db/schema.js';

/**
 * Fedify's key-value store in the database: what it remembers (activity ids already handled, so a
 * delivery that comes twice is handled once; remote servers' public keys) holds for every server
 * process of the instance, not just the one that saw it. A key's parts are joined by a character no
 * part holds in practice (a unit separator); a value is JSON. A row past its lifetime reads as
 * missing, and the maintenance job deletes it (purgeExpiredKv).
 */
const SEPARATOR = '\u001f';
const keyText = (key: KvKey) => key.join(SEPARATOR);

/** Where Fedify keeps the public keys it read to check signatures (passed to it as its prefix). */
export const KEY_CACHE_PREFIX = ['_fedify', 'publicKey'] as const satisfies KvKey;

/**
 * How long a remote server's public key is kept once read: long enough that a busy peer's key is
 * read about once a day, short enough that keys named by a flood of made-up ones do not pile up.
 * A key that changed sooner is read again anyway, when a signature fails against the kept one.
 */
export const KEY_CACHE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A lifetime for what is written under a prefix without one of its own. */
interface DefaultLifetime {
  prefix: KvKey;
  ms: number;
}

/** The lifetimes the federation's store gives what Fedify writes without one. */
const FEDERATION_LIFETIMES: readonly DefaultLifetime[] = [{ prefix: KEY_CACHE_PREFIX, ms: KEY_CACHE_LIFETIME_MS }];

export interface KvStoreOptions {
  /** The clock lifetimes are measured on (tests move it). */
  now?: () => number;
  lifetimes?: readonly DefaultLifetime[];
}

const startsWith = (key: KvKey, prefix: KvKey) => prefix.length <= key.length && prefix.every((part, i) => key[i] === part);

export class DatabaseKvStore implements KvStore {
  private readonly now: () => number;
  private readonly lifetimes: readonly DefaultLifetime[];

  constructor(
    private readonly db: Executor,
    options: KvStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.lifetimes = options.lifetimes ?? FEDERATION_LIFETIMES;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.db.selectFrom('federation_kv').select(['value', 'expires_at']).where('key', '=', keyText(key)).executeTakeFirst();
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= this.now())) return undefined;
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const lifetime = options?.ttl ? options.ttl.total('millisecond') : this.lifetimes.find((rule) => startsWith(key, rule.prefix))?.ms;
    const row = { key: keyText(key), value: JSON.stringify(value), expires_at: lifetime === undefined ? null : this.now() + lifetime };
    await this.db
      .insertInto('federation_kv')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, expires_at: row.expires_at }))
      .execute();
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.deleteFrom('federation_kv').where('key', '=', keyText(key)).execute();
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const now = this.now();
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

/** Deletes the rows past their lifetime; answers how many went. */
export async function purgeExpiredKv(db: Executor, now: number = Date.now()): Promise<number> {
  const result = await db.deleteFrom('federation_kv').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
