import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearLocalData } from '../lib/db/db';
import { cancelScheduledSend } from '../lib/outbox/outbox';
import { storeSession } from '../lib/session';

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

async function start(online: boolean, username: string, userId: string): Promise<void> {
  setOnline(online);
  storeSession('token-1', username, userId);
  await clearLocalData();
}

/** The start of most screen tests: online, logged in as alice (`userId`), an empty local database. */
export const startOnline = (userId = 'u1'): Promise<void> => start(true, 'alice', userId);

/** The start of a test of what is queued: offline (it stays in the outbox), logged in, an empty local database. */
export const startOffline = (username = 'alice', userId = 'u1'): Promise<void> => start(false, username, userId);

/**
 * The hooks of a file whose tests write to the local database and the outbox: cloneable blobs and
 * `begin` (startOnline or startOffline) before each test; after it, no send is left scheduled, or
 * its timer would fire in the next test.
 */
export function setUpLocalFirst(begin: () => Promise<void>): void {
  beforeEach(async () => {
    useCloneableBlobs();
    await begin();
  });
  afterEach(() => cancelScheduledSend());
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

/**
 * Serves a list page by page (the `page` parameter): `pages[n]` as the reply's `field`, with
 * `extra`; every page but the last says there is more.
 */
export function servePages(field: string, pages: Record<string, unknown[]>, extra: Record<string, unknown> = {}) {
  return mockFetch((call) => {
    const page = new URL(call.url, 'http://x').searchParams.get('page')!;
    return { body: { [field]: pages[page], ...extra, hasMore: Number(page) < Object.keys(pages).length } };
  });
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
    author: { username: 'alice', pfp: 'u1', pfpUrl: '/media/pfp/u1.jpeg?v=1' },
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
    images: 0,
    media: [],
    ...extra,
  };
}

/** A minimal comment on post `postId` (a direct answer to it) as the API returns it. */
export function apiComment(id: string, postId: string, extra: Record<string, unknown> = {}) {
  return {
    _id: id,
    postId,
    text: `comment ${id}`,
    parent: { _id: postId, author: { username: 'alice' }, directParent: true },
    author: { username: 'bob', pfp: 'u2', pfpUrl: '/media/pfp/u2.jpeg?v=1' },
    createdAt: Date.now() - 60 * 60_000,
    liked: false,
    likes: 0,
    comments: 0,
    mentions: [],
    itsme: false,
    images: 0,
    media: [],
    deleted: false,
    ...extra,
  };
}

/** A user's profile as GET /profile/user/{username} shows it to a logged-in visitor who does not follow them. */
export function apiProfile(id: string, username: string, extra: Record<string, unknown> = {}) {
  return {
    _id: id,
    username,
    bio: '',
    pfp: id,
    createdAt: Date.UTC(2026, 10, 5),
    followers: 0,
    following: 0,
    groups: 0,
    itsme: false,
    logged: true,
    follows: false,
    notify: false,
    logFollows: false,
    isGoogle: false,
    ...extra,
  };
}

/** A public group as the API shows it to a logged-in visitor who is not a member. */
export function apiGroup(id: string, extra: Record<string, unknown> = {}) {
  return {
    _id: id,
    name: 'birds',
    description: 'All about birds',
    gp: id,
    private: false,
    requestJoin: false,
    everyoneCanPost: true,
    members: 7,
    bans: 0,
    pinnedPost: null,
    member: false,
    banned: false,
    owner: false,
    admin: false,
    logged: true,
    canUserPost: false,
    requested: false,
    createdAt: Date.UTC(2026, 0, 10),
    notification: null,
    ...extra,
  };
}
