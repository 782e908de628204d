import type { Executor } from '../../db/schema.js';
import { accountNotSuspended } from '../../policy/suspension.js';

/** What a status's `@name`s name here: the people and the groups, by lowercased name. */
export async function namedHere(db: Executor, names: readonly string[]): Promise<{ people: Set<string>; groups: Map<string, { id: string; isPrivate: boolean }> }> {
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  if (lower.length === 0) return { people: new Set(), groups: new Map() };
  const [people, groups] = await Promise.all([
    db.selectFrom('users').select('username_lower').where('username_lower', 'in', lower).where(accountNotSuspended()).execute(),
    db.selectFrom('groups').select(['id', 'name_lower', 'is_private']).where('name_lower', 'in', lower).execute(),
  ]);
  return {
    people: new Set(people.map((p) => p.username_lower)),
    groups: new Map(groups.map((g) => [g.name_lower, { id: g.id, isPrivate: Boolean(g.is_private) }])),
  };
}
