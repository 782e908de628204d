import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { TFunction } from 'i18next';
import { DELETED } from '#core/limits';

/** The screen's main heading as shown (the page heading a screen reader lands on first). */
export const screenHeading = (): HTMLElement | null => document.querySelector<HTMLElement>('main#main h1');

// The post page tells whose post it shows: the shell reads no post itself, so the first load
// carries neither the local database nor the API's schemas for it.
let postAuthorShown: string | undefined;
const authorListeners = new Set<() => void>();
const showPostAuthor = (author: string | undefined) => {
  postAuthorShown = author;
  for (const listener of authorListeners) listener();
};
const onPostAuthor = (listener: () => void) => {
  authorListeners.add(listener);
  return () => authorListeners.delete(listener);
};

/** The post page names its post's author for the title while it shows the post. */
export function useTitledPostAuthor(author: string | undefined): void {
  useEffect(() => {
    showPostAuthor(author);
    return () => showPostAuthor(undefined);
  }, [author]);
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * A screen's title, as the server titles the same address for link previews: a profile, a group,
 * a hashtag and a post (by its author, once known) by name; any other screen by its heading; the
 * site's name while there is none.
 */
export function titleFor(pathname: string, heading: string, postAuthor: string | undefined, t: TFunction<'links'>): string {
  const [screen, name] = pathname.split('/').filter(Boolean);
  if (name && screen === 'u') return t('userTitle', { username: decoded(name) });
  if (name && screen === 'g') return t('groupTitle', { group: decoded(name) });
  if (name && screen === 'h') return t('hashtagTitle', { tag: decoded(name) });
  if (name && screen === 'p' && postAuthor && postAuthor !== DELETED) return t('postTitle', { username: postAuthor });
  const shown = heading.trim();
  return shown ? t('screenTitle', { screen: shown }) : t('site');
}

/** Follows the main heading's text, which a screen draws (and may change) after it opens. */
function useHeadingText(): string {
  const [text, setText] = useState('');
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return undefined;
    const read = () => setText(screenHeading()?.textContent ?? '');
    read();
    const observer = new MutationObserver(read);
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return text;
}

/** Keeps document.title naming the screen in the interface's language, for tabs and history. */
export function useScreenTitle(): void {
  const { t } = useTranslation('links');
  const { pathname } = useLocation();
  const heading = useHeadingText();
  const postAuthor = useSyncExternalStore(onPostAuthor, () => postAuthorShown);
  const title = titleFor(pathname, heading, postAuthor, t);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
