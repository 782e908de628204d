import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { vi } from 'vitest';

/**
 * Helpers for tests of the local database and the outbox. jsdom's Blob does not survive the
 * structured clone fake-indexeddb performs, Node's does (as a browser's does in IndexedDB).
 */
export function useCloneableBlobs(): void {
  vi.stubGlobal('Blob', NodeBlob);
  vi.stubGlobal('FormData', SimpleFormData);
}

/** A FormData that accepts Node's Blob (jsdom's insists on its own). */
class SimpleFormData {
  readonly entries: [string, unknown, string | undefined][] = [];
  append(name: string, value: unknown, filename?: string): void {
    this.entries.push([name, value, filename]);
  }
  get(name: string): unknown {
    return this.entries.find(([n]) => n === name)?.[1] ?? null;
  }
}

export function setOnline(online: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

export interface FetchCall {
  url: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Responder = (call: FetchCall) => { status?: number; body?: unknown } | Error | Promise<{ status?: number; body?: unknown } | Error>;

/** A fetch stub recording each call; `respond` answers it (an Error means no answer at all). */
export function mockFetch(respond: Responder) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = String(input);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call: FetchCall = {
      url,
      path: url.split('?')[0]!,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body,
    };
    calls.push(call);
    const answer = await respond(call);
    if (answer instanceof Error) throw answer;
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn };
}

/** A one-at-a-time lock manager standing in for navigator.locks, shared like the browser's. */
export function installLocks() {
  let chain: Promise<unknown> = Promise.resolve();
  const locks = {
    request: (_name: string, callback: () => Promise<unknown>) => {
      const run = chain.then(() => callback());
      chain = run.catch(() => undefined);
      return run;
    },
  };
  Object.defineProperty(navigator, 'locks', { configurable: true, value: locks });
  return () => Object.defineProperty(navigator, 'locks', { configurable: true, value: undefined });
}

/** A minimal post as the API returns it. */
export function apiPost(id: string, extra: Record<string, unknown> = {}) {
  return {
    _id: id,
    text: `post ${id}`,
    author: { username: 'alice', pfp: 'u1' },
    createdAt: Date.now() - 5 * 60_000,
    likes: 0,
    liked: false,
    comments: 0,
    replyingTo: null,
    groups: [],
    mentions: [],
    itsme: false,
    adminGroups: [],
    pinnedGroups: [],
    ownedGroups: [],
    bannedGroups: [],
    canReply: true,
    media: [],
    ...extra,
  };
}
