import SQLite from 'better-sqlite3';

/** Another server process holds the SQLite file this one was to open. */
export class DatabaseInUseError extends Error {}

/** SQLite refused a lock another connection holds (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT...). */
const isBusy = (error: unknown) => typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * The held locks: a connection nothing refers to is closed when garbage collected, which would
 * let go of its lock while the server still runs.
 */
const held = new Set<SQLite.Database>();

/**
 * Makes this process the only server on a SQLite file, until release() or the process's end.
 *
 * Two servers on one file each keep state in memory the other never hears of (kept visitor pages,
 * live streams) and queue for its one writer, which surfaced as `database is locked` failures. The
 * hold is SQLite's own write lock on a small file beside the database (`<file>.lock`), taken with no
 * waiting and kept by an open transaction: the operating system drops it with the process however
 * that ends, so no stale lock outlives a crash, and a reused process id fools nothing. The holder's
 * pid is written there first, for the refusal to name it. The command-line tools (migrate, admin)
 * do not take it: they may run beside the server.
 */
export function holdSqliteFile(file: string): { release(): void } {
  const path = `${file}.lock`;
  const lock = new SQLite(path, { timeout: 0 });
  const take = () => lock.exec('BEGIN IMMEDIATE');
  try {
    take();
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since INTEGER NOT NULL)');
    lock.exec('DELETE FROM holder');
    lock.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, Date.now());
    lock.exec('COMMIT');
    // Taken again at once and never committed: held for as long as this connection is open. A
    // process that came in between holds it instead, and this one is the one refused.
    take();
  } catch (error) {
    if (!isBusy(error)) {
      lock.close();
      throw error;
    }
    const holder = holderOf(lock);
    lock.close();
    throw new DatabaseInUseError(
      `Another Kruh server${holder ? ` (process ${holder})` : ''} is already running on the SQLite database ${file}. ` +
        'Two processes on one SQLite file get in each other\'s way: stop the other one first, or give this one a DATA_DIR of its own ' +
        '(several processes need PostgreSQL, DATABASE_URL).',
    );
  }
  held.add(lock);
  return {
    release: () => {
      held.delete(lock);
      lock.close();
    },
  };
}

/** The pid the holder wrote, when it can be read (not while that process is writing it). */
function holderOf(lock: SQLite.Database): number | undefined {
  try {
    return (lock.prepare('SELECT pid FROM holder').get() as { pid: number } | undefined)?.pid;
  } catch {
    return undefined;
  }
}
