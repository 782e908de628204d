import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb, logoutAndClear } from '../../lib/db/db';
import { getSession, storeSession } from '../../lib/session';
import { type FetchCall, mockFetch } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import CredentialsPage from './CredentialsPage';
import { ME, apiAccount } from './test-fixtures';

type Answer = { status?: number; body?: unknown } | undefined;

function serve(other: (call: FetchCall) => Answer = () => undefined, account = apiAccount()) {
  return mockFetch((call) => {
    const answer = other(call);
    if (answer) return answer;
    if (call.path === '/api/account/get') return { body: { user: account } };
    return { body: { message: 'info/account_updated' } };
  });
}

const render = () =>
  renderWithApp(<CredentialsPage />, {
    route: '/account/credentials',
    path: '/account/credentials',
    routes: [{ path: '/login', element: <p>login page</p> }],
  });

const form = (name: string) => screen.getByRole('form', { name });
const type = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
/** Types into the form's inputs by their labels. */
const fill = (scope: HTMLElement, values: Record<string, string>) => Object.entries(values).forEach(([label, value]) => type(scope, label, value));
/** The page served (`other` answering first), and one of its forms. */
function open(name: string, other?: (call: FetchCall) => Answer) {
  const { calls } = serve(other);
  const { router } = render();
  return { calls, router, scope: form(name) };
}
const save = (scope: HTMLElement) => fireEvent.click(within(scope).getByRole('button', { name: 'Save' }));
const sent = (calls: FetchCall[], path: string) => calls.filter((c) => c.path === path);

beforeEach(async () => {
  storeSession('tok', 'me', ME);
  await logoutAndClear();
  storeSession('tok', 'me', ME);
});

describe('CredentialsPage: username', () => {
  it('checks the shared username rules before sending', async () => {
    const { calls, scope: username } = open('Change username');
    expect(within(username).getByLabelText('New username')).toHaveAttribute('maxLength', '32');
    type(username, 'New username', 'a@b');
    save(username);
    expect(await within(username).findByText('Username must not contain @.')).toBeInTheDocument();
    type(username, 'New username', 'ab');
    save(username);
    expect(await within(username).findByText('Username must be at least 3 characters long.')).toBeInTheDocument();
    expect(sent(calls, '/api/account/changeusername')).toHaveLength(0);
  });

  it('changes the username and updates the stored session', async () => {
    const { calls, scope: username } = open('Change username', (call) =>
      call.path === '/api/account/changeusername' ? { body: { message: 'info/account_updated', username: 'newme' } } : undefined,
    );
    type(username, 'New username', 'newme');
    save(username);
    expect(await within(username).findByText('Your account was updated.')).toBeInTheDocument();
    expect(sent(calls, '/api/account/changeusername')[0]).toMatchObject({ method: 'PATCH', body: { newUsername: 'newme' } });
    expect(getSession().username).toBe('newme');
    expect(getSession().token).toBe('tok');
  });

  it('shows the server message, or Server Error when there is none', async () => {
    let answer: Answer = { status: 409, body: { message: 'error/username_taken' } };
    const { scope: username } = open('Change username', (call) => (call.path === '/api/account/changeusername' ? answer : undefined));
    type(username, 'New username', 'taken');
    save(username);
    expect(await within(username).findByRole('alert')).toHaveTextContent(/taken/i);
    expect(within(username).getByRole('alert')).not.toHaveTextContent('Server Error');
    answer = { status: 502, body: undefined };
    save(username);
    await waitFor(() => expect(within(username).getByRole('alert')).toHaveTextContent('Server Error'));
    expect(getSession().username).toBe('me');
  });
});

describe('CredentialsPage: email', () => {
  it('asks for a new email, checks it and sends it lowercased with the current password', async () => {
    const { calls, scope: email } = open('Change email', (call) => (call.path === '/api/account/changeemail' ? { body: { message: 'info/email_send' } } : undefined));
    save(email);
    expect(await within(email).findByText('Please input a new email')).toBeInTheDocument();
    type(email, 'New email', 'not-an-email');
    // The browser's own email check stops the form; the shared rule backs it up.
    expect((within(email).getByLabelText('New email') as HTMLInputElement).checkValidity()).toBe(false);
    fireEvent.submit(email);
    expect(await within(email).findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(sent(calls, '/api/account/changeemail')).toHaveLength(0);
    fill(email, { 'New email': 'New.Me@Example.COM', 'Current password': 'secret1' });
    save(email);
    expect(await within(email).findByText('We sent you an email. Check your inbox.')).toBeInTheDocument();
    expect(sent(calls, '/api/account/changeemail')[0]).toMatchObject({
      method: 'PATCH',
      body: { email: 'new.me@example.com', password: 'secret1' },
    });
  });
});

describe('CredentialsPage: password', () => {
  it('refuses a repeat that does not match and a password breaking the shared rules', async () => {
    const { calls, scope: password } = open('Change password');
    expect(within(password).getByLabelText('New password')).toHaveAttribute('maxLength', '32');
    fill(password, { 'Current password': 'oldpass', 'New password': 'newpass1', 'New password again': 'newpass2' });
    save(password);
    expect(await within(password).findByText("Passwords don't match.")).toBeInTheDocument();
    fill(password, { 'New password': 'new pass', 'New password again': 'new pass' });
    save(password);
    expect(await within(password).findByText('Password must not contain spaces.')).toBeInTheDocument();
    fill(password, { 'New password': 'abc', 'New password again': 'abc' });
    save(password);
    expect(await within(password).findByText('Password must be at least 6 characters long.')).toBeInTheDocument();
    expect(sent(calls, '/api/account/changepassword')).toHaveLength(0);
  });

  it('changes the password, logs out and goes to /login', async () => {
    const { calls, router, scope: password } = open('Change password');
    fill(password, { 'Current password': 'oldpass', 'New password': 'newpass1', 'New password again': 'newpass1' });
    save(password);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sent(calls, '/api/account/changepassword')[0]).toMatchObject({
      method: 'PATCH',
      body: { oldPassword: 'oldpass', newPassword: 'newpass1' },
    });
    expect(getSession().token).toBeNull();
  });

  it('stays logged in when the server refuses the old password', async () => {
    const { router, scope: password } = open('Change password', (call) =>
      call.path === '/api/account/changepassword' ? { status: 400, body: { message: 'error/invalid_credentials' } } : undefined,
    );
    fill(password, { 'Current password': 'wrong1', 'New password': 'newpass1', 'New password again': 'newpass1' });
    save(password);
    expect(await within(password).findByRole('alert')).toHaveTextContent('Wrong username, email or password.');
    expect(router.state.location.pathname).toBe('/account/credentials');
    expect(getSession().token).toBe('tok');
  });
});

describe('CredentialsPage: Google accounts', () => {
  it('disables the email and password forms, explaining why', async () => {
    await getDb().meta.put({ key: 'account', value: apiAccount({ isGoogle: true }) });
    serve(undefined, apiAccount({ isGoogle: true }));
    render();
    await waitFor(() => expect(within(form('Change email')).getByLabelText('New email')).toBeDisabled());
    expect(within(form('Change password')).getByLabelText('New password')).toBeDisabled();
    expect(within(form('Change username')).getByLabelText('New username')).toBeEnabled();
    expect(screen.getAllByText('This account uses Google Sign-in. Log in with Google.')).toHaveLength(2);
  });
});
