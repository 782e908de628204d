import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { withPreparedStatements } from './pg-prepared.js';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './schema.js';
import { holdSqliteFile } from './sqlite-lock.js';
import { KruhSqliteDialect } from './sqlite-dialect.js';
import { withStatementCache } from './statement-cache.js';

/** What a PostgreSQL connection pool tells of itself (pg's Pool counts). */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface DatabaseHandle {
  db: Db;
  /** PostgreSQL's connection pool, for its counts (SQLite has none). */
  pool?: PoolCounts;
  close(): Promise<void>;
}

// bigint (epoch ms, counts) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  /** postgres://... for PostgreSQL; otherwise SQLite in dataDir. */
  url?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate each file in its own). */
  schema?: string | undefined;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string | undefined;
  poolSize?: number | undefined;
  /**
   * SQLite: refuse to open (DatabaseInUseError) while another process that opened the file with
   * this holds it, and hold it until close. The server sets it; tools and tests do not.
   */
  soleServer?: boolean | undefined;
  /** Told the SQL of every statement run, after it ran (tests count what a request costs). */
  onQuery?: ((sql: string) => void) | undefined;
}

function queryLog(onQuery: DatabaseOptions['onQuery']) {
  if (!onQuery) return {};
  return { log: (event: LogEvent) => onQuery(event.query.sql) };
}

export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * Every statement the server sends reads or writes a page's worth of rows. Parallel workers cost
 * more to start than such a read takes (45 ms before the first row of the following feed at a
 * million posts, where the walk itself takes a few), and so does compiling a plan to machine code,
 * which PostgreSQL starts on cost estimates that a LATERAL read over many follows easily passes.
 */
export const PAGE_READ_SETTINGS = ['-c max_parallel_workers_per_gather=0', '-c jit=off'] as const;

/** The SQLite database's file in DATA_DIR. */
export const SQLITE_FILE = 'kruh.sqlite';

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/**
 * What to tell the operator, in one line, when PostgreSQL refuses to connect because the database
 * DATABASE_URL names does not exist (SQLSTATE 3D000): its name and the command that creates it,
 * never the password. Undefined for any other failure.
 */
export function missingDatabaseMessage(error: unknown, url: string | undefined): string | undefined {
  if (!isPostgresUrl(url) || (error as { code?: unknown } | null)?.code !== '3D000') return undefined;
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  // PostgreSQL's own default: a URL without a database names the user's.
  const name = decodeURIComponent(parsed.pathname.slice(1)) || user || 'postgres';
  const options = [
    ...(parsed.hostname ? ['-h', parsed.hostname] : []),
    ...(parsed.port ? ['-p', parsed.port] : []),
    ...(user ? ['-U', user] : []),
  ];
  return `database ${name} does not exist: create it with \`createdb ${[...options, name].join(' ')}\` (or point DATABASE_URL at one that does)`;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (isPostgresUrl(options.url)) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: [...PAGE_READ_SETTINGS, ...(options.schema ? [`-c search_path=${options.schema}`] : [])].join(' '),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }), ...queryLog(options.onQuery) });
    return { db, pool, close: () => db.destroy() };
  }
  const file = options.sqliteFile ?? SQLITE_FILE;
  let path = file;
  if (file !== ':memory:') {
    mkdirSync(options.dataDir, { recursive: true });
    path = join(options.dataDir, file);
  }
  const hold = options.soleServer && file !== ':memory:' ? holdSqliteFile(path) : undefined;
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // A write waits this long for another connection's (the migrate or admin tool's) before it
  // fails; a failure answers 503 server_busy (plugins/errors.ts).
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new KruhSqliteDialect({ database: withStatementCache(sqlite) }), ...queryLog(options.onQuery) });
  return {
    db,
    close: async () => {
      await db.destroy();
      hold?.release();
    },
  };
}
