import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { ServerErrorKey } from '../errors.js';
import { MessageReplies } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';
import { AuthenticationOptionsReply, AuthenticationResponse, passkeyAnswerEntry } from './webauthn.js';

/*
 * Bodies are loose strings: the rules run in the server's service, so each broken rule answers
 * its own catalogue key rather than a generic schema failure.
 */

/**
 * A sign-up's answer: besides its message, a one-use key the browser keeps so that, once the
 * address is verified from the mailed link in this browser, it signs in without the password.
 */
export const SignupReply = Type.Object({ message: Type.String(), signupLogin: Type.String() });
export type SignupReply = Static<typeof SignupReply>;

/** The sign-up's one-use key and the address the verification link carried. */
export const SignupLoginBody = Type.Object({ key: Type.String(), email: Type.String() });

export const SignupBody = Type.Object({
  username: Type.String(),
  email: Type.String(),
  password: Type.String(),
  /** The person accepted the instance's rules; required (true) while the instance has any. */
  acceptRules: Type.Optional(Type.Boolean()),
  /** Language of the emails and the account; the Accept-Language header otherwise. */
  language: Type.Optional(Type.String()),
  /** Why the person asks to join: required while sign-ups wait for approval. */
  reason: Type.Optional(Type.String()),
  /** The code of an invite link: required while sign-ups are by invitation. */
  invite: Type.Optional(Type.String({ maxLength: 200 })),
});
export type SignupBody = Static<typeof SignupBody>;

export const LoginBody = Type.Object({
  /** A username or an email address. */
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
});
export type LoginBody = Static<typeof LoginBody>;

export const GoogleBody = Type.Object({
  /** The ID token Google's sign-in button handed the web app. */
  token: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  /** A new account made by Google accepts the instance's rules, as a sign-up by form does. */
  acceptRules: Type.Optional(Type.Boolean()),
});

/** `email` is the address the link was sent to, so a link for an address changed since fails. */
export const VerifyQuery = Type.Object({
  token: Type.String(),
  email: Type.Optional(Type.String()),
});

export const ForgotBody = Type.Object({ email: Type.String() });

/**
 * Whom a sign-up's verification mail should go to again: the address, or the username a login
 * was tried with (the mail then goes to the account's address, which the answer never names).
 */
export const ResendVerificationBody = Type.Object({ email: Type.Optional(Type.String()), username: Type.Optional(Type.String()) });

/** A reset link as the mail gave it, to be checked before the form is shown. */
export const ResetLinkBody = Type.Object({ token: Type.String(), email: Type.Optional(Type.String()) });

export const ResetBody = Type.Object({
  token: Type.String(),
  email: Type.Optional(Type.String()),
  password: Type.String(),
});
export type ResetBody = Static<typeof ResetBody>;

/** The `user` of a login answer: what the web app keeps in its session. */
export const SessionUser = Type.Object({ _id: Type.String(), username: Type.String() });
export type SessionUser = Static<typeof SessionUser>;

/** A login's answer: the bearer token and whom it belongs to. */
export const Session = Type.Object({ token: Type.String(), user: SessionUser });
export type Session = Static<typeof Session>;

/** Signing in with a passkey: the stored challenge's id and the browser's answer to its request options. */
export const PasskeyLoginBody = Type.Object({
  challengeId: Type.String({ maxLength: 64 }),
  response: AuthenticationResponse,
});
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>;

export const AuthTestReply = Type.Object({ ok: Type.Boolean(), user: SessionUser });
export type AuthTestReply = Static<typeof AuthTestReply>;

/** The refusals of a name, an address and a password under the shared rules (core/validation). */
export const USERNAME_ERRORS = ['new_username', 'username_characters', 'min_username_length', 'max_username_length', 'username_at', 'username_profanity'] as const satisfies readonly ServerErrorKey[];
export const PASSWORD_ERRORS = ['new_password', 'password_spaces', 'password_invalid', 'min_password_length', 'max_password_length'] as const satisfies readonly ServerErrorKey[];
/** A sign-in of an account whose sign-up waits for the moderators' approval, or was refused. */
export const APPLICATION_ERRORS = ['registration_pending', 'registration_refused'] as const satisfies readonly ServerErrorKey[];

/** A way of signing in: what it takes, and the session it answers. */
const signInEntry = <B extends TSchema>(body: B) => ({ body, replies: { 200: Session } }) as const;

/** The auth calls of the API (see endpoint.ts for how an entry is read). */
export const authApi = {
  signup: endpoint({
    method: 'POST',
    path: '/auth/signup',
    summary: 'Create an unverified account and mail its verification link',
    description:
      'Follows the registration mode (GET /registration): closed refuses (registrations_closed), by invitation a valid ' +
      'invite code is required (invite_required, invalid_invite), by approval a reason is, and the account waits for a ' +
      "moderator's approval before it may sign in (answered with signup_application).",
    body: SignupBody,
    replies: { 201: SignupReply },
    invalidKey: 'new_username',
    errors: [
      ...USERNAME_ERRORS, 'invalid_email', ...PASSWORD_ERRORS, 'rules_not_accepted', 'signup_limit', 'username_taken', 'email_used',
      'registrations_closed', 'invite_required', 'invalid_invite', 'registration_reason_required', 'max_registration_reason_length',
    ],
  }),
  verify: endpoint({
    method: 'GET',
    path: '/auth/verify',
    summary: 'Confirm a sign-up address or an address change from its mailed link',
    query: VerifyQuery,
    replies: MessageReplies,
    invalidKey: 'invalid_link',
    errors: ['invalid_link', 'email_used'],
  }),
  signupLogin: endpoint({
    method: 'POST',
    path: '/auth/signup-login',
    summary: "Sign in with a sign-up's one-use key once its address is verified",
    description:
      'The key comes with the sign-up\'s answer and is kept by the browser that signed up; it works once, for a day, ' +
      'and only after the link mailed to the address it names was opened.',
    body: SignupLoginBody,
    replies: { 200: Session },
    invalidKey: 'invalid_link',
    errors: ['invalid_link', 'verify_email', 'account_suspended', ...APPLICATION_ERRORS],
  }),
  login: endpoint({
    method: 'POST',
    path: '/auth/login',
    summary: 'Sign in with a username (or address) and password',
    ...signInEntry(LoginBody),
    invalidKey: 'invalid_credentials',
    errors: ['invalid_credentials', 'login_timeout', 'login_google', 'verify_email', 'account_suspended', ...APPLICATION_ERRORS],
  }),
  google: endpoint({
    method: 'POST',
    path: '/auth/google',
    summary: 'Sign in with a Google ID token (creating or linking the account)',
    ...signInEntry(GoogleBody),
    invalidKey: 'google_failed',
    errors: ['google_failed', 'email_used', 'username_taken', 'account_suspended', 'registrations_closed', 'google_signup_closed', 'rules_not_accepted', ...APPLICATION_ERRORS],
  }),
  test: plainEntry('POST', '/auth/test', "Check the caller's session", AuthTestReply),
  resendVerification: endpoint({
    method: 'POST',
    path: '/auth/resend-verification',
    summary: "Mail an unverified account's verification link again (the same answer whether or not the address has one)",
    description:
      'Limited per address (counted whether or not an account has it) and per client within the hour (verification_limit).',
    body: ResendVerificationBody,
    replies: MessageReplies,
    invalidKey: 'invalid_email',
    errors: ['invalid_email', 'verification_limit'],
  }),
  forgot: endpoint({
    method: 'POST',
    path: '/auth/forgot',
    summary: 'Mail a password reset link (the same answer whether or not the address has an account)',
    description: 'One request a minute per address, counted whether or not an account has it (reset_wait).',
    body: ForgotBody,
    replies: MessageReplies,
    invalidKey: 'invalid_email',
    errors: ['invalid_email', 'reset_wait'],
  }),
  resetLink: endpoint({
    method: 'POST',
    path: '/auth/reset/check',
    summary: 'Whether a reset link can still be used (nothing changes)',
    body: ResetLinkBody,
    replies: MessageReplies,
    invalidKey: 'invalid_link',
    errors: ['invalid_link'],
  }),
  reset: endpoint({
    method: 'POST',
    path: '/auth/reset',
    summary: 'Set a new password from a reset link, ending every earlier session',
    body: ResetBody,
    replies: MessageReplies,
    invalidKey: 'invalid_link',
    errors: [...PASSWORD_ERRORS, 'invalid_link', 'login_google'],
  }),
  passkeyOptions: endpoint({
    method: 'POST',
    path: '/auth/passkey/options',
    summary: 'Start signing in with a passkey: WebAuthn request options and their challenge id',
    description:
      'No credentials are listed: the authenticator offers the passkeys it holds for this site. The challenge lasts five minutes; ' +
      'one address may ask for a limited number an hour (passkey_limit).',
    replies: { 200: AuthenticationOptionsReply },
    errors: ['passkey_limit'],
  }),
  passkeyLogin: endpoint({
    method: 'POST',
    path: '/auth/passkey',
    summary: 'Sign in with a passkey, answering a session as the password login does',
    ...signInEntry(PasskeyLoginBody),
    ...passkeyAnswerEntry,
    errors: [...passkeyAnswerEntry.errors, 'passkey_not_found', 'verify_email', 'account_suspended', ...APPLICATION_ERRORS],
  }),
} as const;
