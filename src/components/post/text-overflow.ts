import { flushSync } from 'react-dom';

/**
 * Whether a folded text runs past the fold, for every card on the screen through ONE ResizeObserver.
 * A card that read its own `scrollHeight` while mounting made the browser lay the whole page out
 * again for each card, one after another (a feed's first draw spent more time there than anywhere
 * else on a slow phone); the observer is told after the browser's own layout, where reading a height
 * costs nothing, and the answers of all cards go into one render before the frame is painted, so a
 * "Show more" never appears a frame late and moves what is below it.
 */
type Listener = (overflows: boolean) => void;

const listeners = new Map<Element, { limit: number; listener: Listener }>();
let observer: ResizeObserver | undefined;

function report(elements: Iterable<Element>): void {
  flushSync(() => {
    for (const element of elements) {
      const watched = listeners.get(element);
      watched?.listener(element.scrollHeight > watched.limit);
    }
  });
}

/** Tells `listener` whether `element`'s content is taller than `limit` px, now and when that changes. */
export function watchOverflow(element: HTMLElement, limit: number, listener: Listener): () => void {
  if (typeof ResizeObserver === 'undefined') {
    // No observer (an old browser, a test's DOM): measured once, as the text was mounted.
    listener(element.scrollHeight > limit);
    return () => undefined;
  }
  observer ??= new ResizeObserver((entries) => report(entries.map((entry) => entry.target)));
  listeners.set(element, { limit, listener });
  observer.observe(element);
  return () => {
    listeners.delete(element);
    observer?.unobserve(element);
  };
}
