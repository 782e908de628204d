import { Type } from '@sinclair/typebox';

/**
 * Bodies are loose strings: the rules run in the service, so each broken rule answers
 * its own catalogue key rather than a generic schema failure.
 */
export const SignupBody = Type.Object({
  username: Type.String(),
  email: Type.String(),
  password: Type.String(),
  /** Language of the emails and the account; the Accept-Language header otherwise. */
  language: Type.Optional(Type.String()),
});

export const LoginBody = Type.Object({
  /** A username or an email address. */
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
});

export const GoogleBody = Type.Object({
  token: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
});

export const VerifyQuery = Type.Object({
  token: Type.String(),
  email: Type.Optional(Type.String()),
});

export const ForgotBody = Type.Object({ email: Type.String() });

export const ResetBody = Type.Object({
  token: Type.String(),
  email: Type.Optional(Type.String()),
  password: Type.String(),
});

export const SessionUserSchema = Type.Object({ _id: Type.String(), username: Type.String() });

export const SessionReply = Type.Object({ token: Type.String(), user: SessionUserSchema });

export const AuthTestReply = Type.Object({ ok: Type.Boolean(), user: SessionUserSchema });
