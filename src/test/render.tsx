import { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProviders } from '../app/providers';
import { createI18n } from '../lib/i18n';
import { expect } from 'vitest';

export interface RenderOptions {
  /** Starting address (the part after the #). */
  route?: string;
  /** Extra routes next to the element's own, e.g. redirect targets. */
  routes?: RouteObject[];
  /** Path pattern of the element's route (default '*'). */
  path?: string;
  lng?: 'en' | 'cs';
  queryClient?: QueryClient;
}

export interface AppRender extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  i18n: I18n;
  queryClient: QueryClient;
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

/** Renders UI inside the app's providers (query client, i18n in a fixed language) and a router. */
export function renderWithApp(ui: ReactElement, options: RenderOptions = {}): AppRender {
  const i18n = createI18n({ lng: options.lng ?? 'en' });
  const queryClient = options.queryClient ?? testQueryClient();
  const router = createMemoryRouter([{ path: options.path ?? '*', element: ui }, ...(options.routes ?? [])], {
    initialEntries: [options.route ?? '/'],
  });
  const result = render(
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, i18n, queryClient };
}

/** Renders a whole route table (the app's or a test's) at an address. */
export function renderRoutes(routes: RouteObject[], options: Omit<RenderOptions, 'routes' | 'path'> = {}): AppRender {
  const i18n = createI18n({ lng: options.lng ?? 'en' });
  const queryClient = options.queryClient ?? testQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? '/'] });
  const result = render(
    <AppProviders queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, i18n, queryClient };
}

/** A fetch stub answering by "METHOD /path" (without the query); unknown calls get a 404. */
export type Responder = (url: URL, init: RequestInit | undefined) => { status?: number; body?: unknown } | undefined;

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function stubFetch(responder: Responder) {
  const calls: Array<{ method: string; url: URL; body: unknown }> = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    let body: unknown = undefined;
    if (typeof init?.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    calls.push({ method, url, body });
    const answer = responder(url, init);
    if (!answer) return jsonResponse(404, { message: 'error/server_error' });
    return jsonResponse(answer.status ?? 200, answer.body);
  };
  return { fetchMock, calls };
}

/** Expects each link, found by its name, to lead to its address. */
export function expectLinks(links: Record<string, string>): void {
  for (const [name, href] of Object.entries(links)) expect(screen.getByRole('link', { name })).toHaveAttribute('href', href);
}
