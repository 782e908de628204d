import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Journey, finishJourney, launchBrowser, openJourney } from './support/browser';
import { type TestServer, startServer } from './support/server';

/**
 * The API reference at /api/docs works in a real browser under the policy the server sends with
 * it: its scripts run, it loads the document and draws the operations, and nothing is refused.
 */
describe('API reference page', () => {
  let server: TestServer;
  let browser: Browser;
  let journey: Journey | undefined;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterEach(async (test) => {
    await finishJourney(journey, test);
    journey = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws every operation of the document with no policy refusal', async () => {
    journey = await openJourney(browser);
    const page = await journey.context.newPage();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    await page.goto(`${server.baseUrl}/api/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });

    const apiDocument = (await (await page.request.get(`${server.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(apiDocument.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations);
    await expect(page.locator('.opblock-summary-path', { hasText: '/api/group/{name}/posts' }).count()).resolves.toBe(1);
    await expect(page.locator('.title', { hasText: 'Kruh' }).count()).resolves.toBeGreaterThan(0);

    expect(violations).toEqual([]);
    expect(journey.log.pageErrors).toEqual([]);
    expect(journey.log.lines.filter((line) => /Refused to|Content Security Policy/i.test(line))).toEqual([]);
  });
});
