/**
 * An in-memory CacheStorage (jsdom has none), enough for the media cache code and Workbox's
 * strategies: entries are keyed by URL, responses are cloned in and out like the real one.
 */
class FakeCache {
  readonly entries = new Map<string, { request: Request; response: Response }>();

  private static url(request: RequestInfo | URL): string {
    return typeof request === 'string' ? new URL(request, location.href).href : request instanceof URL ? request.href : request.url;
  }

  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    return this.entries.get(FakeCache.url(request))?.response.clone();
  }

  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    const url = FakeCache.url(request);
    this.entries.set(url, { request: new Request(url), response: response.clone() });
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    return this.entries.delete(FakeCache.url(request));
  }

  async keys(): Promise<Request[]> {
    return [...this.entries.values()].map((entry) => entry.request);
  }
}

export class FakeCacheStorage {
  readonly caches = new Map<string, FakeCache>();

  async has(name: string): Promise<boolean> {
    return this.caches.has(name);
  }

  async open(name: string): Promise<FakeCache> {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new FakeCache();
      this.caches.set(name, cache);
    }
    return cache;
  }

  async delete(name: string): Promise<boolean> {
    return this.caches.delete(name);
  }

  async keys(): Promise<string[]> {
    return [...this.caches.keys()];
  }

  async match(request: RequestInfo | URL, options?: { cacheName?: string }): Promise<Response | undefined> {
    const names = options?.cacheName ? [options.cacheName] : [...this.caches.keys()];
    for (const name of names) {
      const found = await this.caches.get(name)?.match(request);
      if (found) return found;
    }
    return undefined;
  }

  /** The URLs cached under `name`, for assertions. */
  urls(name: string): string[] {
    return [...(this.caches.get(name)?.entries.keys() ?? [])];
  }

  asCacheStorage(): CacheStorage {
    return this as unknown as CacheStorage;
  }
}
