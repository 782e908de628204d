import { type Static, Type } from '@sinclair/typebox';
import { plainEntry } from './endpoint.js';

/**
 * The deployment settings the web app needs at run time: whether to offer Google sign-in (the
 * client id, null without one), the GIF picker, and the content host of media (mediaUrl, without
 * a trailing slash, null without one: a media URL `/media/<path>` is then read from
 * `<mediaUrl>/<path>`, falling back to `/media/<path>` when that fails). Only public values: the
 * client id is printed in every page anyway.
 */
export const PublicConfig = Type.Object({
  googleClientId: Type.Union([Type.String(), Type.Null()]),
  tenorEnabled: Type.Boolean(),
  mediaUrl: Type.Union([Type.String(), Type.Null()]),
  /** Whether the instance speaks to the fediverse: the moderators' blocked domains are shown only then. */
  federation: Type.Boolean(),
});
export type PublicConfig = Static<typeof PublicConfig>;

/** The config calls of the API (see endpoint.ts for how an entry is read). */
export const configApi = {
  get: plainEntry('GET', '/config', 'The public settings of the deployment (Google sign-in, GIFs, the content host of media)', PublicConfig),
} as const;
