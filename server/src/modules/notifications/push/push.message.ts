import { type Notification, labelOf, postLink } from '#core/api/notifications';
import type { PushPayload } from '#core/api/push';
import { appPaths } from '#core/app-paths';
import { DELETED } from '#core/limits';
import cs from '../../../../../locales/cs/notifications.json' with { type: 'json' };
import en from '../../../../../locales/en/notifications.json' with { type: 'json' };

/**
 * What a push says, in the recipient's language: the item's label from the web app's own catalogue
 * (locales/<lng>/notifications.json) with the names put in, and the excerpt of the post or comment
 * it is about, so the device shows what the notification list would.
 */

export type PushLanguage = 'en' | 'cs';
const CATALOGUES: Record<PushLanguage, typeof en> = { en, cs };

export const pushLanguage = (language: string | null | undefined): PushLanguage => (language === 'cs' ? 'cs' : 'en');

const present = (name: string | null | undefined): name is string => !!name && name !== DELETED;

/** The labels that are about a group, opening its page (a join request opens the list, where it is decided). */
const ABOUT_GROUP = new Set(['join', 'accepted', 'denied', 'madeAdmin', 'revokedAdmin', 'madeOwner']);

/** The app page the notification opens, as its path. */
export function pushUrl(n: Notification): string {
  const post = postLink(n);
  if (post) return post;
  const label = labelOf(n);
  const group = n.groupname ?? n.groups[0] ?? null;
  if (label === 'follow' && present(n.username)) return appPaths.user(n.username);
  if (ABOUT_GROUP.has(label) && present(group)) return appPaths.group(group);
  return appPaths.notifications();
}

/**
 * The label with the names put in where the web app puts its links (`<user/>`, `<group/>`). Names
 * are placed as they are: the text is shown by the system as plain text, never read as markup.
 */
export function pushTitle(n: Notification, language: PushLanguage): string {
  const texts = CATALOGUES[language];
  const user = present(n.username) ? n.username : texts.deletedUser;
  const groupname = n.groupname ?? n.groups[0] ?? null;
  const group = present(groupname) ? groupname : texts.deletedGroup;
  const label = texts.types[labelOf(n)];
  return label
    .split(/(<user\/>|<group\/>)/)
    .map((piece) => (piece === '<user/>' ? user : piece === '<group/>' ? group : piece))
    .join('');
}

export function pushMessage(n: Notification, language: PushLanguage, unread: number): PushPayload {
  return { title: pushTitle(n, language), body: n.reply ?? '', url: pushUrl(n), tag: `kruh-${n._id}`, badge: unread };
}
