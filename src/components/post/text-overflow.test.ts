import '../../test/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for the browser's observer: the test says when layout has happened. */
class FakeResizeObserver {
  static instances: FakeResizeObserver[] = [];
  observed = new Set<Element>();
  constructor(readonly callback: (entries: Array<{ target: Element }>) => void) {
    FakeResizeObserver.instances.push(this);
  }
  observe(element: Element) {
    this.observed.add(element);
  }
  unobserve(element: Element) {
    this.observed.delete(element);
  }
  disconnect() {
    this.observed.clear();
  }
  /** What the browser does after a layout: one call for every observed element that changed. */
  laidOut(elements: Element[]) {
    this.callback(elements.map((target) => ({ target })));
  }
}

const tall = (height: number) => {
  const element = document.createElement('div');
  Object.defineProperty(element, 'scrollHeight', { get: () => height });
  return element;
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
  FakeResizeObserver.instances = [];
});

describe('watching whether a folded text runs past the fold', () => {
  it('uses one observer for every card and answers each once the browser has laid them out', async () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const { watchOverflow } = await import('./text-overflow');
    const long = tall(500);
    const short = tall(120);
    const seen: Array<[string, boolean]> = [];
    const stopLong = watchOverflow(long, 200, (overflows) => seen.push(['long', overflows]));
    watchOverflow(short, 200, (overflows) => seen.push(['short', overflows]));
    // Nothing is measured while mounting: that would lay the page out once per card.
    expect(seen).toEqual([]);
    expect(FakeResizeObserver.instances).toHaveLength(1);
    const observer = FakeResizeObserver.instances[0]!;
    observer.laidOut([long, short]);
    expect(seen).toEqual([
      ['long', true],
      ['short', false],
    ]);
    stopLong();
    expect(observer.observed.has(long)).toBe(false);
    observer.laidOut([long]);
    expect(seen).toHaveLength(2);
  });

  it('measures once at mounting where the browser has no observer', async () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const { watchOverflow } = await import('./text-overflow');
    const answers: boolean[] = [];
    watchOverflow(tall(201), 200, (overflows) => answers.push(overflows));
    watchOverflow(tall(200), 200, (overflows) => answers.push(overflows));
    expect(answers).toEqual([true, false]);
  });
});
