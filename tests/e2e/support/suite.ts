import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type BrowserKind, type Journey, finishJourney, openJourney, sharedBrowser } from './browser';
import { type ServerOptions, type TestServer, type TestUser, sessionStorageState, startServer } from './server';

export interface JourneyOptions extends BrowserContextOptions {
  /** Starts logged in as this user (the session the app keeps in localStorage). */
  as?: TestUser;
}

/**
 * What every file of browser journeys shares: one server and one browser for all its tests, and
 * one journey (a fresh browser context) per test, closed after the test with its screenshots and
 * console log saved when it failed.
 */
export interface E2eSuite {
  readonly server: TestServer;
  readonly browser: Browser;
  /** The running test's journey, once `open` or `visit` made it. */
  readonly journey: Journey;
  /** Opens the running test's journey. */
  open(options?: JourneyOptions): Promise<Journey>;
  /** Opens the running test's journey and a page in it at `path` on the server (`/`, `/feed`). */
  visit(path: string, options?: JourneyOptions): Promise<Page>;
}

export interface SuiteOptions extends ServerOptions {
  /** 'full': the file tests what only the full browser has (push, Background Sync, installability). */
  browser?: BrowserKind;
}

/**
 * Registers the hooks of an e2e file (call it once, in its `describe`). The server and browser
 * exist from the file's first `beforeAll` on: a `beforeAll` registered after this call may seed
 * data through `suite.server`.
 */
export function useE2eSuite({ browser: kind = 'shell', ...options }: SuiteOptions = {}): E2eSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let journey: Journey | undefined;

  beforeAll(async () => {
    server = await startServer(options);
    browser = await sharedBrowser(kind);
  });

  afterEach(async (test) => {
    await finishJourney(journey, test);
    journey = undefined;
  });

  afterAll(async () => {
    // Contexts a test left open go with it; the browser stays for the worker's next file.
    await Promise.all((browser?.contexts() ?? []).map((context) => context.close().catch(() => undefined)));
    await server?.close();
  });

  function ready<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`${what} is not there yet: use it inside a test or a hook`);
    return value;
  }

  const suite: E2eSuite = {
    get server() {
      return ready(server, 'the test server');
    },
    get browser() {
      return ready(browser, 'the browser');
    },
    get journey() {
      return ready(journey, "the test's journey");
    },
    async open({ as, ...contextOptions } = {}) {
      const session = as ? { storageState: sessionStorageState(suite.server, as) } : {};
      journey = await openJourney(suite.browser, { ...session, ...contextOptions }, process.env.KRUH_E2E_TRACE === 'always');
      return journey;
    },
    async visit(path, journeyOptions) {
      const { context } = await suite.open(journeyOptions);
      const page = await context.newPage();
      await page.goto(`${suite.server.baseUrl}${path}`);
      return page;
    },
  };
  return suite;
}
