import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession, type Locator, type Page, type Request, chromium } from 'playwright-core';
import type { TestContext } from 'vitest';

/** Debian's Chromium (playwright-core brings no browser of its own). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless shell of the same Chromium (package chromium-headless-shell): the same Blink
 * and V8 without the full browser's layers, which took a third of the browser tests' CPU. It has
 * no notification permission, push or Background Sync, and it does not judge installability (it
 * reports no error at all), so files that test those ask for the full browser. Where it is not
 * installed, every file runs in the full browser.
 */
const CHROMIUM_SHELL = process.env.CHROMIUM_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/** Which Chromium a file runs in: the headless shell, or the full browser for what only it has. */
export type BrowserKind = 'shell' | 'full';

const executableOf = (kind: BrowserKind) => (kind === 'shell' && existsSync(CHROMIUM_SHELL) ? CHROMIUM_SHELL : CHROMIUM);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where failure screenshots and console logs go (gitignored). */
export const RESULTS_DIR = resolve('test-results');

/**
 * Starts Chromium, trying once more when the first start fails: on a loaded machine a start now
 * and then dies before its first page, and a file's hooks get no retry of their own.
 */
export async function launchBrowser(kind: BrowserKind): Promise<Browser> {
  const launch = () => chromium.launch({ executablePath: executableOf(kind), args: CHROMIUM_ARGS });
  try {
    return await launch();
  } catch (error) {
    console.warn('Chromium did not start, trying again:', error);
    return launch();
  }
}

const shared = new Map<BrowserKind, Promise<Browser>>();

/**
 * One Chromium of each kind for every test file a worker runs (the browser projects share a
 * worker's modules): each journey has its own context, with its own storage, service worker and
 * IndexedDB, so a new browser per file bought nothing but its start. One that crashed or was
 * closed is started again. The worker's exit ends it.
 */
export async function sharedBrowser(kind: BrowserKind): Promise<Browser> {
  const started = shared.get(kind);
  const current = started ? await started.catch(() => undefined) : undefined;
  if (current?.isConnected()) return current;
  const launching = launchBrowser(kind);
  shared.set(kind, launching);
  return launching;
}

/** What the pages of one context said on the console and threw, for failure reports. */
export interface PageLog {
  lines: string[];
  /** Uncaught exceptions in any page: a journey expects none. */
  pageErrors: string[];
}

export interface Journey {
  context: BrowserContext;
  log: PageLog;
  /** A trace is being recorded (saved if the journey fails). */
  traced: boolean;
}

/**
 * A fresh browser context (its own storage, service worker and IndexedDB) whose pages' console
 * messages and uncaught errors are collected.
 */
export async function openJourney(browser: Browser, options: BrowserContextOptions = {}, trace = false): Promise<Journey> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options });
  const log: PageLog = { lines: [], pageErrors: [] };
  const watch = (page: Page) => {
    const index = context.pages().indexOf(page);
    page.on('console', (message) => log.lines.push(`[page ${index}] ${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => {
      log.pageErrors.push(error.message);
      log.lines.push(`[page ${index}] pageerror: ${error.stack ?? error.message}`);
    });
  };
  context.on('page', watch);
  // Each step, snapshot and request, to replay in `npx playwright show-trace`; kept only when the
  // journey fails. Recording costs a quarter of a journey's time, so only a run that asks records it.
  if (trace) await context.tracing.start({ screenshots: true, snapshots: true });
  return { context, log, traced: trace };
}

const fileSafe = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 120);

/**
 * Closes the journey's context; when the test failed, first saves a full-page screenshot of each
 * open page, the console log and the trace into test-results/ and says where.
 */
/** Gives up on a step after `ms`: a renderer that hangs must not hold the hook until it times out. */
function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export async function finishJourney(journey: Journey | undefined, test: TestContext): Promise<void> {
  if (!journey) return;
  try {
    if (test.task.result?.state === 'fail') {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const base = fileSafe(`${test.task.file?.name.replace(/^.*\//, '') ?? 'e2e'}-${test.task.name}`);
      const saved: string[] = [];
      for (const [i, page] of journey.context.pages().entries()) {
        const path = join(RESULTS_DIR, `${base}-${i}.png`);
        try {
          await within(10_000, page.screenshot({ path, fullPage: true, timeout: 5_000 }), 'screenshot');
          saved.push(`${path} (${page.url()})`);
        } catch (err) {
          saved.push(`${path}: no screenshot (${String(err)})`);
        }
      }
      const logPath = join(RESULTS_DIR, `${base}.log`);
      writeFileSync(logPath, `${journey.log.lines.join('\n')}\n`);
      const tracePath = join(RESULTS_DIR, `${base}.trace.zip`);
      if (!journey.traced) saved.push(`${tracePath}: not recorded (run again with KRUH_E2E_TRACE=always)`);
      else {
        try {
          await within(20_000, journey.context.tracing.stop({ path: tracePath }), 'trace');
          saved.push(tracePath);
        } catch (err) {
          saved.push(`${tracePath}: no trace (${String(err)})`);
        }
      }
      console.error(`e2e failure artefacts:\n  ${[...saved, logPath].join('\n  ')}`);
    }
  } finally {
    await within(20_000, journey.context.close(), 'closing the context').catch(() => undefined);
  }
}

/**
 * The requests of a context's pages and service worker that went out and have no answer yet, kept
 * up to date: what a test waits to be empty before it counts what reached the server.
 */
export function awaitingAnswers(context: BrowserContext, method: string, pathPrefix: string): ReadonlySet<Request> {
  const waiting = new Set<Request>();
  context.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname.startsWith(pathPrefix)) waiting.add(request);
  });
  const answered = (request: Request) => void waiting.delete(request);
  context.on('requestfinished', answered);
  context.on('requestfailed', answered);
  return waiting;
}

/**
 * Resolves once every message the page has written to its console so far has reached the test: a
 * page's console messages arrive in order, so a marker written now comes after them.
 */
export async function consoleCaughtUp(page: Page): Promise<void> {
  const marker = `console caught up ${randomUUID()}`;
  const arrived = page.waitForEvent('console', (message) => message.text() === marker);
  await page.evaluate((text) => console.debug(text), marker);
  await arrived;
}

/** Resolves once the page has drawn a frame after this call: what its scripts did before is on screen. */
export async function nextPaint(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** Resolves once every animation running on the element (a slide, a fade) has ended. */
export async function animationsEnded(element: Locator): Promise<void> {
  await element.evaluate((node) => Promise.all(node.getAnimations({ subtree: true }).map((animation) => animation.finished)));
}

/** Resolves once a service worker controls the page (the app shell is then cached). */
export async function waitForServiceWorker(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout });
}

/**
 * The id of the origin's service worker registration, as DevTools knows it: what its ServiceWorker
 * commands (a sync or a push handed to the worker) name the worker by.
 */
export async function registrationIdOf(cdp: CDPSession, origin: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
}
