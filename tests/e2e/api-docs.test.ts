import { describe, expect, it } from 'vitest';
import { useE2eSuite } from './support/suite';

/**
 * The API reference at /api/docs works in a real browser under the policy the server sends with
 * it: its scripts run, it loads the document and draws the operations, and nothing is refused.
 */
describe('API reference page', () => {
  const e2e = useE2eSuite();

  it('draws every operation of the document with no policy refusal', async () => {
    const journey = await e2e.open();
    const page = await journey.context.newPage();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    await page.goto(`${e2e.server.baseUrl}/api/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });

    const apiDocument = (await (await page.request.get(`${e2e.server.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(apiDocument.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    // Past a number of operations the page draws only those near the view (a virtualised list), so
    // the test scrolls through it, a frame at a time, and gathers every operation drawn on the way.
    const seen = new Set<string>();
    const gather = async () => {
      const drawn = await page.locator('.opblock-summary').evaluateAll((blocks) =>
        blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent ?? ''} ${b.querySelector('.opblock-summary-path')?.textContent ?? ''}`),
      );
      for (const operation of drawn) seen.add(operation.replace(/\u200b/g, ''));
    };
    const nextFrame = () => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
    for (let step = 0; step < 1000 && seen.size < operations; step++) {
      await gather();
      const atEnd = await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
      if (atEnd && step > 0) break;
      await page.mouse.wheel(0, 300);
      await nextFrame();
    }
    await gather();
    expect(seen.size).toBe(operations);
    expect(seen.has('GET /api/group/{name}/posts')).toBe(true);
    await expect(page.locator('.title', { hasText: 'Kruh' }).count()).resolves.toBeGreaterThan(0);

    expect(violations).toEqual([]);
    expect(journey.log.pageErrors).toEqual([]);
    expect(journey.log.lines.filter((line) => /Refused to|Content Security Policy/i.test(line))).toEqual([]);
  });
});
