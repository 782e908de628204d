/**
 * PostgreSQL's codes for a statement that gave up waiting on other work, or a server too loaded to
 * take it: the same call is likely to succeed a moment later.
 */
const POSTGRES_BUSY = new Set([
  '55P03', // lock_not_available: lock_timeout ran out, or NOWAIT
  '40001', // serialization_failure
  '40P01', // deadlock_detected: this transaction was the one cancelled
  '57014', // query_canceled: statement_timeout ran out
  '53300', // too_many_connections
  '57P03', // cannot_connect_now: the server is starting or shutting down
]);

const codeOf = (error: unknown): unknown => (typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined);

/**
 * Whether an error (or what it wraps) is the database being busy rather than anything wrong with
 * the request or the code: SQLite's SQLITE_BUSY and SQLITE_LOCKED (another connection's write
 * outlasted busy_timeout), or one of PostgreSQL's codes above.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth += 1) {
    const code = codeOf(current);
    if (typeof code !== 'string') continue;
    if (/^SQLITE_(BUSY|LOCKED)/.test(code) || POSTGRES_BUSY.has(code)) return true;
  }
  return false;
}
