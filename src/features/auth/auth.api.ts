import { ApiError, apiFetch } from '../../lib/api/client';

export interface LoginReply {
  token: string;
  user: { _id: string; username: string };
}

export interface MessageReply {
  message: string;
}

export interface PublicConfig {
  googleClientId: string | null;
  tenorEnabled: boolean;
}

export const login = (username: string, password: string) =>
  apiFetch<LoginReply>('/auth/login', { method: 'POST', body: { username, password } });

/** `language` picks the language of the account and its emails. */
export const signup = (username: string, email: string, password: string, language?: string) =>
  apiFetch<MessageReply>('/auth/signup', { method: 'POST', body: { username, email, password, language } });

export const googleLogin = (token: string, language?: string) =>
  apiFetch<LoginReply>('/auth/google', { method: 'POST', body: { token, language } });

export const verifyEmail = (token: string, email: string | null) =>
  apiFetch<MessageReply>('/auth/verify', { query: { token, email } });

export const forgotPassword = (email: string) =>
  apiFetch<MessageReply>('/auth/forgot', { method: 'POST', body: { email } });

export const resetPassword = (token: string, email: string | null, password: string) =>
  apiFetch<MessageReply>('/auth/reset', { method: 'POST', body: { token, email, password } });

export const fetchPublicConfig = () => apiFetch<PublicConfig>('/config');

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
