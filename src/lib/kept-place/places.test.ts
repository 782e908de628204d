import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PLACES, createPlaces } from './places';
import { entryKey, keepScroll } from './useKeptPlace';

beforeEach(() => sessionStorage.clear());

describe('places of history entries', () => {
  it("keeps each entry's pages per list; a new entry has none, so its lists start at their first page", () => {
    const places = createPlaces(sessionStorage);
    places.keepPages('a', 'explore', 6);
    places.keepPages('a', 'strip', 2);
    places.keepPages('b', 'explore', 1);
    expect([places.pagesOf('a', 'explore'), places.pagesOf('a', 'strip'), places.pagesOf('b', 'explore')]).toEqual([6, 2, 1]);
    expect(places.pagesOf('c', 'explore')).toBeUndefined();
    expect(places.scrollOf('c')).toBeUndefined();
  });

  it('outlives a reload of the tab: pages at once, the scroll once saved', () => {
    const before = createPlaces(sessionStorage);
    before.keepPages('a', 'explore', 3);
    before.keepScroll('a', 1200);
    expect(createPlaces(sessionStorage).scrollOf('a')).toBeUndefined();
    before.save();
    const after = createPlaces(sessionStorage);
    expect([after.pagesOf('a', 'explore'), after.scrollOf('a')]).toEqual([3, 1200]);
  });

  it('forgets the least recently used places beyond its bound', () => {
    const places = createPlaces(sessionStorage);
    for (let i = 0; i <= MAX_PLACES; i += 1) places.keepPages(`e${i}`, 'explore', 2);
    places.keepScroll('e1', 10);
    places.keepPages('last', 'explore', 2);
    expect(places.pagesOf('e0', 'explore')).toBeUndefined();
    expect(places.pagesOf('e2', 'explore')).toBeUndefined();
    expect(places.scrollOf('e1')).toBe(10);
    expect(places.pagesOf('last', 'explore')).toBe(2);
  });
});

describe('the scroll of an entry', () => {
  let height = 0;
  let resized: () => void = () => undefined;
  const scrollTo = vi.fn();

  beforeEach(() => {
    height = 800;
    scrollTo.mockReset();
    vi.spyOn(document.documentElement, 'scrollHeight', 'get').mockImplementation(() => height);
    vi.stubGlobal('innerHeight', 800);
    vi.stubGlobal('scrollTo', scrollTo);
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          resized = callback;
        }
        observe() {}
        disconnect() {
          resized = () => undefined;
        }
      },
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const scrolled = (y: number) => {
    vi.stubGlobal('scrollY', y);
    window.dispatchEvent(new Event('scroll'));
  };

  it('is kept as it scrolls, and back on the entry is restored once the page is tall enough', () => {
    const places = createPlaces(sessionStorage);
    keepScroll('a', false, places)();
    expect(scrollTo).not.toHaveBeenCalled();

    const leave = keepScroll('a', false, places);
    scrolled(2400);
    leave();
    expect(createPlaces(sessionStorage).scrollOf('a')).toBe(2400);

    const back = keepScroll('a', true, places);
    // The short page scrolls to its top meanwhile: not where the user was.
    scrolled(0);
    height = 2000;
    resized();
    expect(scrollTo).not.toHaveBeenCalled();
    height = 3500;
    resized();
    expect(scrollTo).toHaveBeenCalledWith(0, 2400);
    back();
    expect(places.scrollOf('a')).toBe(2400);
  });

  it('starts a new entry at the top, and gives up restoring once the user scrolls', () => {
    const places = createPlaces(sessionStorage);
    places.keepScroll('a', 2400);
    keepScroll('a', false, places)();
    expect(scrollTo).not.toHaveBeenCalled();

    const back = keepScroll('a', true, places);
    window.dispatchEvent(new Event('touchstart'));
    scrolled(300);
    height = 3500;
    resized();
    expect(scrollTo).not.toHaveBeenCalled();
    expect(places.scrollOf('a')).toBe(300);
    back();
  });
});

describe('the key of an entry', () => {
  it("is the router's own, or one kept in the history state of an entry the router calls default", () => {
    window.history.replaceState({ idx: 0 }, '');
    expect(entryKey('k1')).toBe('k1');
    const first = entryKey('default');
    expect(entryKey('default')).toBe(first);
    expect(window.history.state).toMatchObject({ idx: 0 });

    // An address changed from outside the router: another entry, so not the first one's place.
    window.history.pushState(null, '', '#/p/1');
    const other = entryKey('default');
    expect(other).not.toBe(first);
    window.history.replaceState(window.history.state, '');
    expect(entryKey('default')).toBe(other);
  });
});
