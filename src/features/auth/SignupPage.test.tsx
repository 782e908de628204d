import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '#core/limits';
import { renderWithApp, stubFetch } from '../../test/render';
import SignupPage from './SignupPage';

function renderSignup(responder: Parameters<typeof stubFetch>[0], lng: 'en' | 'cs' = 'en', route = '/signup') {
  const stub = stubFetch(responder);
  vi.stubGlobal('fetch', stub.fetchMock);
  const view = renderWithApp(<SignupPage />, { route, path: '/signup', lng });
  return { ...view, calls: stub.calls };
}

function fill(values: { username: string; email: string; password: string; repeat: string }) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: values.username } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: values.email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: values.password } });
  fireEvent.change(screen.getByLabelText('Password again'), { target: { value: values.repeat } });
}

const signupCalls = (calls: Array<{ url: URL }>) => calls.filter((c) => c.url.pathname === '/api/auth/signup');

describe('SignupPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks every field with the shared rules before calling', () => {
    const { calls } = renderSignup(() => undefined);
    fill({ username: 'al', email: 'not-an-email', password: 'has space', repeat: 'other' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByText('Username must be at least 3 characters long.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Password must not contain spaces.')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match.")).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(signupCalls(calls)).toHaveLength(0);
  });

  it('rejects a username with @ and a mismatched repeat', () => {
    renderSignup(() => undefined);
    fill({ username: 'al@ice', email: 'alice@example.com', password: 'secret1', repeat: 'secret2' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByText('Username must not contain @.')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match.")).toBeInTheDocument();
  });

  it('limits the password fields to the form maximum', () => {
    renderSignup(() => undefined);
    expect(screen.getByLabelText('Password')).toHaveAttribute('maxLength', String(LIMITS.passwordFormMax));
    expect(screen.getByLabelText('Password again')).toHaveAttribute('maxLength', String(LIMITS.passwordFormMax));
  });

  it('signs up and shows the verify-your-email message', async () => {
    const { calls } = renderSignup((url) =>
      url.pathname === '/api/auth/signup' ? { status: 201, body: { message: 'info/signup_email' } } : undefined,
    );
    fill({ username: 'alice', email: 'Alice@Example.com', password: 'secret1', repeat: 'secret1' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('status')).toHaveTextContent('We sent you an email to verify your address.');
    expect(signupCalls(calls)[0]).toMatchObject({
      body: { username: 'alice', email: 'alice@example.com', password: 'secret1', language: 'en' },
    });
  });

  it('shows the server message translated, with a link to login', async () => {
    renderSignup(() => ({ status: 409, body: { message: 'error/username_taken' } }));
    fill({ username: 'alice', email: 'alice@example.com', password: 'secret1', repeat: 'secret1' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This username is already taken.');
    expect(screen.getByRole('link', { name: 'Log in instead' })).toHaveAttribute('href', '/login');
  });

  it("shows the instance's rules, refuses to send until they are accepted, then sends the acceptance", async () => {
    const instance = { name: 'Kruh of friends', description: '', about: '', rules: ['Be kind.', 'No spam.'], contact: '' };
    const { calls } = renderSignup((url) => {
      if (url.pathname === '/api/instance') return { body: instance };
      return url.pathname === '/api/auth/signup' ? { status: 201, body: { message: 'info/signup_email' } } : undefined;
    });
    const rules = await screen.findByRole('group', { name: 'The rules of Kruh of friends' });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Be kind.', 'No spam.']);
    expect(screen.getByRole('link', { name: 'More about Kruh of friends' })).toHaveAttribute('href', '/about');
    fill({ username: 'alice', email: 'alice@example.com', password: 'secret1', repeat: 'secret1' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Please accept the rules to sign up.')).toBeInTheDocument();
    expect(signupCalls(calls)).toHaveLength(0);
    fireEvent.click(screen.getByRole('checkbox', { name: 'I accept these rules' }));
    expect(screen.queryByText('Please accept the rules to sign up.')).toBeNull();
    expect(rules).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('status')).toHaveTextContent('We sent you an email to verify your address.');
    expect(signupCalls(calls)[0]).toMatchObject({ body: { username: 'alice', acceptRules: true } });
  });

  it('falls back to error/singup_failed', async () => {
    renderSignup(() => ({ status: 502, body: 'bad gateway' }));
    fill({ username: 'alice', email: 'alice@example.com', password: 'secret1', repeat: 'secret1' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-up failed.');
  });

  it('speaks Czech', async () => {
    renderSignup(() => ({ status: 409, body: { message: 'error/email_used' } }), 'cs');
    fireEvent.change(screen.getByLabelText('Uživatelské jméno'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'alice@example.com' } });
    fireEvent.change(screen.getByLabelText('Heslo'), { target: { value: 'secret1' } });
    fireEvent.change(screen.getByLabelText('Heslo znovu'), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Zaregistrovat se' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Tento e-mail se už používá.');
  });

  it('names the address on "Almost done" and sends the mail again, showing a refusal', async () => {
    let refuse = false;
    const { calls } = renderSignup((url) => {
      if (url.pathname === '/api/auth/signup') return { status: 201, body: { message: 'info/signup_email' } };
      if (url.pathname !== '/api/auth/resend-verification') return undefined;
      return refuse ? { status: 429, body: { message: 'error/verification_limit' } } : { body: { message: 'info/verification_sent' } };
    });
    fill({ username: 'alice', email: 'Alice@Example.com', password: 'secret1', repeat: 'secret1' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('We sent it to alice@example.com.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send it again' }));
    expect(await screen.findByText('If this address is waiting to be verified, we sent it a new link.')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname === '/api/auth/resend-verification').map((c) => c.body)).toEqual([{ email: 'alice@example.com' }]);
    refuse = true;
    fireEvent.click(screen.getByRole('button', { name: 'Send it again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many verification emails were asked for.');
  });

  describe('under the registration mode', () => {
    const inMode = (mode: string, signupAnswer?: { status: number; body: unknown }) => (url: URL) => {
      if (url.pathname === '/api/registration') return { body: { mode, membersInvite: false } };
      if (url.pathname === '/api/instance') return { body: { name: 'kruh.example', description: '', about: '', rules: [], contact: '' } };
      if (url.pathname === '/api/auth/signup') return signupAnswer;
      return undefined;
    };

    it('says sign-ups are closed, and offers no form', async () => {
      renderSignup(inMode('closed'));
      expect(await screen.findByText('Registrations are closed on this instance.')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    });

    it('asks why by approval, checks it with the shared rule, sends it, and says the sign-up waits', async () => {
      const { calls } = renderSignup(inMode('approval', { status: 201, body: { message: 'info/signup_application' } }));
      const reason = await screen.findByLabelText('Why would you like to join?');
      fill({ username: 'alice', email: 'alice@example.com', password: 'secret1', repeat: 'secret1' });
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
      expect(screen.getByText('Tell the moderators why you would like to join.')).toBeInTheDocument();
      expect(signupCalls(calls)).toHaveLength(0);
      fireEvent.change(reason, { target: { value: 'I sing in the choir.' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
      expect(await screen.findByRole('status')).toHaveTextContent('The moderators will review your sign-up');
      expect(signupCalls(calls)[0]).toMatchObject({ body: { username: 'alice', reason: 'I sing in the choir.' } });
    });

    it('fills the invite code from the link by invitation, and sends it', async () => {
      const { calls } = renderSignup(inMode('invitation', { status: 201, body: { message: 'info/signup_email' } }), 'cs', '/signup?invite=abc123');
      expect(await screen.findByLabelText('Kód pozvánky')).toHaveValue('abc123');
      fireEvent.change(screen.getByLabelText('Uživatelské jméno'), { target: { value: 'alice' } });
      fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'alice@example.com' } });
      fireEvent.change(screen.getByLabelText('Heslo'), { target: { value: 'secret1' } });
      fireEvent.change(screen.getByLabelText('Heslo znovu'), { target: { value: 'secret1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Zaregistrovat se' }));
      await screen.findByRole('status');
      expect(signupCalls(calls)[0]).toMatchObject({ body: { username: 'alice', invite: 'abc123' } });
    });
  });
});
