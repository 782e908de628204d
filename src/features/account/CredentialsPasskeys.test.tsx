import '../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, logoutAndClear } from '../../lib/db/db';
import { storeSession } from '../../lib/session';
import { type FetchCall, mockFetch, setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import CredentialsPage from './CredentialsPage';
import { PASSKEYS_META_KEY } from './passkeys.api';
import { ME, apiAccount } from './test-fixtures';

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

type Answer = { status?: number; body?: unknown } | undefined;

const CREATED = Date.UTC(2026, 10, 20, 12);
const LAPTOP = { _id: 'p'.repeat(24), name: 'Laptop', createdAt: CREATED, lastUsedAt: null };
const PHONE = { _id: 'q'.repeat(24), name: 'Phone', createdAt: Date.UTC(2026, 10, 24, 12), lastUsedAt: Date.UTC(2026, 10, 25, 8) };
const OPTIONS = {
  rp: { name: 'Kruh', id: 'localhost' },
  user: { id: 'dQ', name: 'me', displayName: 'me' },
  challenge: 'Y2g',
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  excludeCredentials: [],
};
const MADE = {
  id: 'new',
  rawId: 'new',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'Y2Q', attestationObject: 'YW8', transports: ['internal'] },
};

function serve(other: (call: FetchCall) => Answer = () => undefined, passkeys: unknown[] = [LAPTOP]) {
  return mockFetch((call) => {
    const answer = other(call);
    if (answer) return answer;
    if (call.path === '/api/account/get') return { body: { user: apiAccount() } };
    if (call.path === '/api/passkeys' && call.method === 'GET') return { body: { passkeys } };
    return { status: 404, body: { message: 'error/not_found' } };
  });
}

const render = () => renderWithApp(<CredentialsPage />, { route: '/account/credentials', path: '/account/credentials' });
const section = () => screen.getByRole('region', { name: 'Passkeys' });
const sent = (calls: FetchCall[], path: string, method = 'POST') => calls.filter((c) => c.path === path && c.method === method);

beforeEach(async () => {
  storeSession('tok', 'me', ME);
  await logoutAndClear();
  storeSession('tok', 'me', ME);
  setOnline(true);
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  browser.startRegistration.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

describe('CredentialsPage: passkeys', () => {
  it('lists the passkeys with the dates they were added and last used', async () => {
    serve(undefined, [PHONE, LAPTOP]);
    render();
    const list = await within(section()).findByRole('list', { name: 'Passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^PhoneAdded Nov 24, 2026 · last used Nov 25, 2026Remove$/),
      expect.stringMatching(/^LaptopAdded Nov 20, 2026Remove$/),
    ]);
    expect(within(items[1]!).getByRole('button', { name: 'Remove passkey Laptop' })).toBeEnabled();
  });

  it('adds a passkey made by the browser for the server\'s challenge, with its name', async () => {
    browser.startRegistration.mockResolvedValue(MADE);
    const added = { _id: 'r'.repeat(24), name: 'Work key', createdAt: Date.UTC(2026, 10, 25, 9), lastUsedAt: null };
    const { calls } = serve((call) =>
      call.path === '/api/passkeys/register/options'
        ? { body: { challengeId: 'ch-9', options: OPTIONS } }
        : call.path === '/api/passkeys/register'
          ? { status: 201, body: added }
          : undefined,
    );
    render();
    await within(section()).findByText('Laptop');
    fireEvent.change(within(section()).getByLabelText('Name (optional)'), { target: { value: ' Work key ' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(section()).findByRole('status')).toHaveTextContent('The passkey was added.');
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(sent(calls, '/api/passkeys/register')[0]?.body).toEqual({ challengeId: 'ch-9', response: MADE, name: 'Work key' });
    const names = within(within(section()).getByRole('list')).getAllByRole('listitem').map((item) => item.firstElementChild?.firstElementChild?.textContent);
    expect(names).toEqual(['Work key', 'Laptop']);
    // Kept on the device, so the list shows offline too.
    const stored = (await getDb().meta.get(PASSKEYS_META_KEY))?.value as { _id: string }[];
    expect(stored.map((p) => p._id)).toEqual([added._id, LAPTOP._id]);
    expect(within(section()).getByLabelText('Name (optional)')).toHaveValue('');
  });

  it('says so when the browser made no passkey, and sends nothing to keep', async () => {
    browser.startRegistration.mockRejectedValue(Object.assign(new Error('exists'), { name: 'InvalidStateError', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' }));
    const { calls } = serve((call) => (call.path === '/api/passkeys/register/options' ? { body: { challengeId: 'ch-1', options: OPTIONS } } : undefined));
    render();
    await within(section()).findByText('Laptop');
    fireEvent.click(within(section()).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(section()).findByRole('alert')).toHaveTextContent('This device already holds a passkey for your account.');
    expect(sent(calls, '/api/passkeys/register')).toHaveLength(0);
  });

  it('shows the server\'s refusal of a passkey', async () => {
    browser.startRegistration.mockResolvedValue(MADE);
    serve((call) =>
      call.path === '/api/passkeys/register/options'
        ? { body: { challengeId: 'ch-1', options: OPTIONS } }
        : call.path === '/api/passkeys/register'
          ? { status: 400, body: { message: 'error/passkey_expired' } }
          : undefined,
    );
    render();
    await within(section()).findByText('Laptop');
    fireEvent.click(within(section()).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(section()).findByRole('alert')).toHaveTextContent('The passkey request has expired. Try again.');
    expect(within(section()).getAllByRole('listitem')).toHaveLength(1);
  });

  it('removes a passkey', async () => {
    const { calls } = serve((call) =>
      call.path === `/api/passkeys/${LAPTOP._id}` && call.method === 'DELETE' ? { body: { message: 'info/passkey_removed' } } : undefined,
    );
    render();
    fireEvent.click(await within(section()).findByRole('button', { name: 'Remove passkey Laptop' }));
    expect(await within(section()).findByRole('status')).toHaveTextContent('The passkey was removed.');
    expect(sent(calls, `/api/passkeys/${LAPTOP._id}`, 'DELETE')).toHaveLength(1);
    // The list is read from the local database, whose change reaches the screen a moment after the status.
    expect(await within(section()).findByText('You have no passkeys yet.')).toBeInTheDocument();
    expect(within(section()).queryByText('Laptop')).toBeNull();
  });

  it('offers no new passkey where the browser has no WebAuthn, but still lists and removes', async () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    serve();
    render();
    await within(section()).findByText('Laptop');
    expect(within(section()).queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(within(section()).getByText('This browser cannot use passkeys.')).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Remove passkey Laptop' })).toBeEnabled();
  });

  it('shows the stored list offline, with adding and removing waiting for a connection', async () => {
    await getDb().meta.put({ key: PASSKEYS_META_KEY, value: [LAPTOP] });
    setOnline(false);
    const { calls } = mockFetch(() => new TypeError('Failed to fetch'));
    render();
    expect(await within(section()).findByText('Laptop')).toBeInTheDocument();
    expect(within(section()).getByRole('button', { name: 'Remove passkey Laptop' })).toBeDisabled();
    expect(within(section()).getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
    expect(within(section()).getByText(/You are offline/)).toBeInTheDocument();
    setOnline(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(within(section()).getByRole('button', { name: 'Add a passkey' })).toBeEnabled());
    expect(sent(calls, '/api/passkeys/register/options')).toHaveLength(0);
  });
});
