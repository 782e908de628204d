/**
 * Where each history entry's screen was left: how many pages each of its lists had loaded and how
 * far it was scrolled, so back (the browser's or the app's arrow) shows the same place. Keyed by
 * the router's key of the entry, not by its address: two visits of one address are two places, and
 * a fresh visit starts at the top. Kept in sessionStorage, which lives as long as the tab's history.
 */

/** One entry's place. */
export interface Place {
  /** Loaded pages by the list's stored id. */
  pages: Record<string, number>;
  scrollY?: number;
}

export interface Places {
  pagesOf(entry: string, list: string): number | undefined;
  keepPages(entry: string, list: string, pages: number): void;
  scrollOf(entry: string): number | undefined;
  /** Kept in memory only, as it changes on every scroll: `save` writes it down. */
  keepScroll(entry: string, scrollY: number): void;
  save(): void;
}

const STORAGE_KEY = 'kruh:places';
/** A tab's history rarely goes back further; older places go first. */
export const MAX_PLACES = 50;

function read(storage: Storage | undefined): Map<string, Place> {
  try {
    const saved: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
    return new Map(Array.isArray(saved) ? (saved as [string, Place][]) : []);
  } catch {
    return new Map();
  }
}

export function createPlaces(storage: Storage | undefined): Places {
  const places = read(storage);

  /** The entry's place, now the most recent one. */
  function touch(entry: string): Place {
    const place = places.get(entry) ?? { pages: {} };
    places.delete(entry);
    places.set(entry, place);
    for (const old of places.keys()) {
      if (places.size <= MAX_PLACES) break;
      places.delete(old);
    }
    return place;
  }

  function save() {
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify([...places]));
    } catch {
      // Storage full or refused (private mode): back still works within this page's life.
    }
  }

  return {
    pagesOf: (entry, list) => places.get(entry)?.pages[list],
    keepPages(entry, list, pages) {
      const place = touch(entry);
      if (place.pages[list] === pages) return;
      place.pages[list] = pages;
      save();
    },
    scrollOf: (entry) => places.get(entry)?.scrollY,
    keepScroll(entry, scrollY) {
      touch(entry).scrollY = scrollY;
    },
    save,
  };
}

const storage = typeof sessionStorage === 'undefined' ? undefined : sessionStorage;

/** The app's places. */
export const places: Places = createPlaces(storage);
