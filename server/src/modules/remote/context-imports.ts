/**
 * A JSON-LD context may import another (`@import`); no fediverse server's does. The JSON-LD reader
 * keeps, for the whole process, what it made of each context it read, and an import leaves it a
 * record that breaks the reading of every later document naming that context (the security one,
 * say, which every Mastodon activity names) until the record is forgotten. So a document that
 * imports a context is refused, from an inbox and from another server's answer alike, before it
 * is read.
 */

/** Whether the JSON value imports a JSON-LD context anywhere in it (walked without recursion, however deep it nests). */
export function importsContext(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (!Array.isArray(item) && Object.hasOwn(item, '@import')) return true;
    for (const child of Object.values(item)) pending.push(child);
  }
  return false;
}
