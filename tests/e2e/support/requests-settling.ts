import type { Page, Request } from 'playwright-core';
import { nextPaint } from './browser';

export interface RequestsSettling {
  /**
   * Resolves once none of the page's requests waits for its answer and the page has drawn a frame
   * since the last answer came without asking for anything more: what the screen asked for (its
   * data, a part's code, a picture) is on it.
   */
  settled(timeoutMs?: number): Promise<void>;
}

/**
 * Follows a page's requests from now on (call it before the page opens a screen). The
 * notification stream stays open by design and is left out.
 */
export function followRequests(page: Page): RequestsSettling {
  const waiting = new Set<Request>();
  /** Counts every request that starts or ends, to tell whether one came in the meantime. */
  let changes = 0;
  let quiet: (() => void) | undefined;
  page.on('request', (request) => {
    if (request.resourceType() === 'eventsource') return;
    waiting.add(request);
    changes += 1;
  });
  const answered = (request: Request) => {
    if (!waiting.delete(request)) return;
    changes += 1;
    if (waiting.size === 0) quiet?.();
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  const allAnswered = () => (waiting.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (quiet = resolve)));

  return {
    async settled(timeoutMs = 20_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error(`${page.url()}: no answer yet to ${[...waiting].map((r) => r.url()).join(', ')}`)), timeoutMs);
      });
      const settling = async () => {
        for (;;) {
          await allAnswered();
          const seen = changes;
          // The last answer drawn, or the next request it leads to made (a page's requests reach
          // the test in the order it makes them, before this frame's answer).
          await nextPaint(page);
          if (changes === seen) return;
        }
      };
      try {
        await Promise.race([settling(), late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
