import { authApi } from '#core/api/auth';
import { callApi } from '../../lib/api/client';
import { keepSession } from './auth.api';

/**
 * The sign-up's one-use key, kept by the browser that signed up (it knew the password): when
 * the verification link is opened in this browser, the key signs it in. Kept in localStorage so
 * another tab of the same browser, where the mail's link opens, finds it.
 */
const STORAGE_KEY = 'signupLogin';

interface Kept {
  email: string;
  key: string;
}

export function keepSignupLogin(email: string, key: string): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ email, key } satisfies Kept));
}

function readKept(): Kept | null {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Kept> | null;
    return typeof kept?.email === 'string' && typeof kept.key === 'string' ? { email: kept.email, key: kept.key } : null;
  } catch {
    return null;
  }
}

/**
 * After the address `email` was verified: signs in with the kept key when it was made for that
 * address, and forgets the key whatever the answer (it works once). False when nothing signed in
 * (another browser, another address, a refusal): the page then offers the login.
 */
export async function signInAfterVerifying(email: string | null): Promise<boolean> {
  const kept = readKept();
  if (!kept || !email || kept.email !== email.trim().toLowerCase()) return false;
  localStorage.removeItem(STORAGE_KEY);
  try {
    keepSession(await callApi(authApi.signupLogin, { body: kept }));
    return true;
  } catch (err) {
    console.warn('signup login', err);
    return false;
  }
}
