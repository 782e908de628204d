import { type Static, Type } from '@sinclair/typebox';

export const Profile = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  bio: Type.String(),
  pfp: Type.String(),
  pfpUrl: Type.String(),
  createdAt: Type.Number(),
  followers: Type.Integer(),
  following: Type.Integer(),
  groups: Type.Integer(),
  itsme: Type.Boolean(),
  logged: Type.Boolean(),
  follows: Type.Boolean(),
  notify: Type.Boolean(),
  logFollows: Type.Boolean(),
  isGoogle: Type.Boolean(),
  email: Type.Optional(Type.String()),
});
export type Profile = Static<typeof Profile>;

export const ProfileReply = Type.Object({ user: Profile });

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1 }) });
export type UsernameParams = Static<typeof UsernameParams>;
