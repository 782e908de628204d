import type { TFunction } from 'i18next';
import { TOP_SCOPES } from '#core/client-apps';

/** The scopes an app may ask for, said in the person's words (what the app will be able to do). */

const SUBJECTS = [
  'accounts', 'blocks', 'bookmarks', 'conversations', 'favourites', 'filters', 'follows', 'lists', 'media', 'mutes',
  'notifications', 'reports', 'search', 'statuses',
] as const;
type Subject = (typeof SUBJECTS)[number];
type Top = (typeof TOP_SCOPES)[number];

const isTop = (scope: string): scope is Top => (TOP_SCOPES as readonly string[]).includes(scope);
const isSubject = (name: string): name is Subject => (SUBJECTS as readonly string[]).includes(name);

/** A scope's sentence: a top scope's own, a sub-scope's from its verb and subject; an unknown one as it is. */
export function describeScope(t: TFunction<'oauth'>, scope: string): string {
  if (isTop(scope)) return t(`scopes.${scope}`);
  const [verb, subject] = scope.split(':');
  if ((verb === 'read' || verb === 'write') && subject !== undefined && isSubject(subject)) {
    return t(`scopes.${verb}_sub`, { what: t(`scopes.subjects.${subject}`) });
  }
  return scope;
}
