import type { CredentialAccount } from '#core/api/client-account';
import { appPaths } from '#core/app-paths';
import type { Profile } from '#core/api/profiles';
import type { Viewer } from '../../lib/viewer.js';

/**
 * A Kruh account as the client API's Account entity. Kruh has no display name apart from the
 * username, no header picture (the instance's icon stands in), no profile fields and no locked
 * accounts; the bio is the note, as plain paragraphs of HTML.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);

/** The bio as HTML: a paragraph per blank-line-separated block, line breaks kept. */
export const noteHtml = (bio: string): string =>
  bio
    .split(/\n{2,}/u)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${escapeHtml(block).replace(/\n/gu, '<br>')}</p>`)
    .join('');

const iso = (ms: number) => new Date(ms).toISOString();

/** The signed-in account with its `source`, for verify_credentials. */
export function credentialAccount(origin: string, viewer: Viewer, profile: Profile, statuses: number): CredentialAccount {
  const { user } = viewer;
  const avatar = new URL(profile.pfpUrl, `${origin}/`).toString();
  const header = `${origin}/icons/icon-512.png`;
  const url = `${origin}${appPaths.user(user.username)}`;
  return {
    id: user.id,
    username: user.username,
    acct: user.username,
    url,
    uri: url,
    display_name: user.username,
    note: noteHtml(user.bio),
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    locked: false,
    fields: [],
    emojis: [],
    bot: false,
    group: false,
    discoverable: Number(user.discoverable) === 1,
    indexable: Number(user.indexable) === 1,
    hide_collections: false,
    created_at: iso(user.created_at),
    last_status_at: null,
    statuses_count: statuses,
    followers_count: profile.followers,
    following_count: profile.following,
    source: { privacy: 'public', sensitive: false, language: user.language, note: user.bio, fields: [], follow_requests_count: 0 },
  };
}
