import '../../test/setup';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logoutAndClear } from '../../lib/db/db';
import { storeSession } from '../../lib/session';
import { setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import AccountPage from './AccountPage';
import { formatBytes } from './DataExport';
import { ME, apiAccount } from './test-fixtures';

interface Call {
  path: string;
  method: string;
  headers: Record<string, string>;
}

const ZIP_NAME = 'kruh-me-2025-11-15.zip';

/**
 * A fetch that answers the account as JSON and the export with `exportAnswer`: a zip whose bytes
 * the test sends piece by piece through the returned controller, or a refusal.
 */
function serve(exportAnswer: () => Response | Promise<Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', vi.fn(async (input: string, init: RequestInit = {}) => {
    const path = String(input).split('?')[0]!;
    calls.push({ path, method: init.method ?? 'GET', headers: { ...(init.headers as Record<string, string>) } });
    if (path === '/api/account/export') return exportAnswer();
    const body = path === '/api/account/get' ? { user: apiAccount() } : { message: 'info/account_updated' };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }));
  return calls;
}

/** A streamed zip answer: the test enqueues its pieces and closes it (or breaks it off). */
function streamedZip() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const response = new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${ZIP_NAME}"` },
  });
  return { response, controller };
}

const refusal = (status: number, message: string) =>
  new Response(JSON.stringify({ message }), { status, headers: { 'Content-Type': 'application/json' } });

const render = (lng: 'en' | 'cs' = 'en') => renderWithApp(<AccountPage />, { route: '/account', path: '/account', lng });

/** What the page handed the browser to save. */
function captureSaves() {
  const saved: { href: string; download: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${n++}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}

beforeEach(async () => {
  storeSession('tok', 'me', ME);
  await logoutAndClear();
  storeSession('tok', 'me', ME);
  setOnline(true);
  // jsdom has no object URLs; each test that saves stands them in.
  Object.assign(URL, { createObjectURL: () => 'blob:none', revokeObjectURL: () => undefined });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setOnline(true);
});

describe('Download my data', () => {
  it('calls the export with the session, shows the bytes as they stream in, then saves the zip', async () => {
    const zip = streamedZip();
    const calls = serve(() => zip.response);
    const saved = captureSaves();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));

    expect(await screen.findByText('Preparing your data…')).toBeInTheDocument();
    const progress = screen.getByRole('progressbar', { name: 'Download progress' });
    // The size of a zip written as it is sent is unknown: the bar is indeterminate.
    expect(progress).not.toHaveAttribute('value');
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeDisabled();
    const call = calls.find((c) => c.path === '/api/account/export')!;
    expect(call).toMatchObject({ method: 'GET', headers: { Authorization: 'Bearer tok' } });

    await act(async () => zip.controller.enqueue(new Uint8Array(2048).fill(1)));
    expect(await screen.findByText('2 kB received…')).toBeInTheDocument();
    await act(async () => zip.controller.enqueue(new Uint8Array(3000).fill(2)));
    expect(await screen.findByText('5 kB received…')).toBeInTheDocument();
    expect(saved).toEqual([]);

    await act(async () => zip.controller.close());
    expect(await screen.findByText('Your data has been downloaded.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(saved).toHaveLength(1);
    expect(saved[0]!.download).toBe(ZIP_NAME);
    expect(saved[0]!.blob.size).toBe(5048);
    expect(saved[0]!.blob.type).toBe('application/zip');
    const bytes = new Uint8Array(await saved[0]!.blob.arrayBuffer());
    expect([bytes[0], bytes[2047], bytes[2048], bytes[5047]]).toEqual([1, 1, 2, 2]);
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeEnabled();
  });

  it('shows the refusal of too many exports, translated, and saves nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(() => refusal(429, 'error/export_limit'));
    const saved = captureSaves();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have downloaded your data too often. Try again later.');
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Download my data' })).toBeEnabled();
  });

  it('says the same in Czech', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(() => refusal(429, 'error/export_limit'));
    render('cs');
    fireEvent.click(await screen.findByRole('button', { name: 'Stáhnout moje data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Svá data jste stahovali příliš často. Zkuste to později.');
  });

  it('says the download failed when the answer breaks off midway', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const zip = streamedZip();
    serve(() => zip.response);
    const saved = captureSaves();
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await act(async () => zip.controller.enqueue(new Uint8Array(1500)));
    expect(await screen.findByText('1.5 kB received…')).toBeInTheDocument();
    await act(async () => zip.controller.error(new TypeError('connection reset')));
    expect(await screen.findByRole('alert')).toHaveTextContent('The download failed. Please try again.');
    expect(saved).toEqual([]);
  });

  it('is disabled offline, and enabled again when the connection returns', async () => {
    const calls = serve(() => refusal(500, 'error/server_error'));
    setOnline(false);
    render();
    const button = await screen.findByRole('button', { name: 'Download my data' });
    expect(button).toBeDisabled();
    expect(screen.getByText('Connect to the internet to download your data.')).toBeInTheDocument();
    fireEvent.click(button);
    expect(calls.map((c) => c.path)).not.toContain('/api/account/export');

    setOnline(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(button).toBeEnabled());
    expect(screen.queryByText('Connect to the internet to download your data.')).toBeNull();
  });
});

describe('formatBytes', () => {
  it('counts in kB below a megabyte and in MB above, in the language', () => {
    expect(formatBytes(512, 'en')).toBe('0.5 kB');
    expect(formatBytes(12_345, 'en')).toBe('12.3 kB');
    expect(formatBytes(3_250_000, 'en')).toBe('3.3 MB');
    expect(formatBytes(3_250_000, 'cs')).toBe('3,3 MB');
  });
});
