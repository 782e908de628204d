import { type Session, authApi } from '#core/api/auth';
import type { MessageReply } from '#core/api/common';
import { ApiError, callApi } from '../../lib/api/client';
import { signWithPasskey } from '../../lib/passkeys';
import { storeSession } from '../../lib/session';

export const login = (username: string, password: string) => callApi(authApi.login, { body: { username, password } });

/** Keeps the session a login answered (password, passkey or Google): the app is signed in from here. */
export const keepSession = (reply: Session) => storeSession(reply.token, reply.user.username, reply.user._id);

/** Signs in with a passkey the browser holds for this site: the server's challenge, signed, then checked. */
export async function passkeyLogin(): Promise<Session> {
  const { challengeId, options } = await callApi(authApi.passkeyOptions);
  const response = await signWithPasskey(options);
  return callApi(authApi.passkeyLogin, { body: { challengeId, response } });
}

/**
 * `language` picks the language of the account and its emails; `admission` carries why the person
 * would like to join (sign-ups by approval) or the invite code (by invitation), and whether they
 * accepted the instance's rules.
 */
export const signup = (
  username: string,
  email: string,
  password: string,
  language?: string,
  admission: { reason?: string; invite?: string; acceptRules?: boolean } = {},
) => callApi(authApi.signup, { body: { username, email, password, language, ...admission } });

export const googleLogin = (token: string, language?: string, acceptRules?: boolean) => callApi(authApi.google, { body: { token, language, acceptRules } });

export const verifyEmail = (token: string, email: string | null) => callApi(authApi.verify, { query: { token, email: email ?? undefined } });

/** To the address, or to the address of the account named (a login tried with a username). */
export const resendVerification = (to: { email: string } | { username: string }) => callApi(authApi.resendVerification, { body: to });

export const checkResetLink = (token: string, email: string | null) => callApi(authApi.resetLink, { body: { token, email: email ?? undefined } });

export const forgotPassword = (email: string) => callApi(authApi.forgot, { body: { email } });

export const resetPassword = (token: string, email: string | null, password: string) =>
  callApi(authApi.reset, { body: { token, email: email ?? undefined, password } });

/**
 * What to show for a failed call: the server's `error/...` (or `info/...`) message when it sent
 * one, the given fallback otherwise (offline, unexpected answers).
 */
export function failureMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && /^(error|info)\/\w+$/.test(err.message)) return err.message;
  return fallback;
}

/** A success message from the server, or the fallback when the body carried none. */
export function replyMessage(reply: MessageReply | undefined, fallback: string): string {
  return typeof reply?.message === 'string' && /^(error|info)\/\w+$/.test(reply.message) ? reply.message : fallback;
}
