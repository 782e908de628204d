import type { CredentialAccount } from '#core/api/client-account';
import type { Account } from '#core/api/client-entities';
import { appPaths } from '#core/app-paths';
import type { Profile } from '#core/api/profiles';
import { DELETED } from '#core/limits';
import { absolute } from '../../lib/absolute-url.js';
import { escapeHtml, inParagraphs } from '../../lib/text-html.js';
import { avatarUrl } from '../../policy/media-urls.js';
import { groupAccountId } from './client-ids.js';
import type { GroupAccountRow, PersonRow } from './clientapi.repository.js';
import type { Viewer } from '../../lib/viewer.js';
import { keptValue } from '../../lib/kept-values.js';

/**
 * Times already written out: an app reads the same posts again and again (every refresh of a
 * timeline, from every timeline they are on), and formatting a date is dear.
 */
const times = new Map<number, string>();

/** A time as the ISO 8601 string apps read. */
export const isoTime = (ms: number): string => keptValue(times, ms, 10_000, () => new Date(ms).toISOString());

/** Days already written out, by their number since 1970: a page's accounts share a handful. */
const days = new Map<number, string>();

/** The day an account was made, as apps show it (midnight of that day, UTC). */
function dayOf(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  return keptValue(days, day, 10_000, () => `${new Date(day * 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`);
}

/** A bio or a description as HTML: a paragraph per blank-line-separated block, line breaks kept. */
export const noteHtml = (text: string) => (text.trim() === '' ? '' : inParagraphs(escapeHtml(text.trim())));

/**
 * What every account has alike. Kruh has no display name apart from the username, no header
 * picture (the instance's icon stands in, as every app expects an address), no profile fields and
 * no custom emojis.
 */
function accountOf(origin: string, fields: Omit<Account, 'fields' | 'emojis' | 'header' | 'header_static' | 'avatar_static' | 'bot' | 'hide_collections'>): Account {
  const header = `${origin}/icons/icon-512.png`;
  return { ...fields, avatar_static: fields.avatar, header, header_static: header, fields: [], emojis: [], bot: false, hide_collections: false };
}

/**
 * A person as an account: `acct` is the username here, `name@host` for someone of another server
 * (whose url is their page there); the display name is the username, the note the bio as HTML.
 */
export function personAccount(origin: string, row: PersonRow): Account {
  const at = row.username.indexOf('@');
  const page = absolute(origin, appPaths.user(row.username));
  return accountOf(origin, {
    id: row.id,
    username: at < 0 ? row.username : row.username.slice(0, at),
    acct: row.username,
    url: row.remote_url ?? page,
    uri: row.remote_url ?? page,
    display_name: row.username,
    note: noteHtml(row.bio),
    avatar: absolute(origin, avatarUrl('pfp', row.id, row.pfp_version)),
    locked: false,
    group: false,
    discoverable: row.discoverable,
    indexable: row.indexable,
    created_at: dayOf(row.created_at),
    last_status_at: row.last_status_at === null ? null : dayOf(row.last_status_at).slice(0, 10),
    statuses_count: row.statuses,
    followers_count: row.followers,
    following_count: row.following,
  });
}

/**
 * A group as an account (`group: true`): its members are its followers, its posts its statuses. A
 * private group is locked, and outside it its counts read 0, as its posts and members are its own.
 */
export function groupAccount(origin: string, row: GroupAccountRow): Account {
  const page = absolute(origin, appPaths.group(row.name));
  return accountOf(origin, {
    id: groupAccountId(row.id),
    username: row.name,
    acct: row.name,
    url: page,
    uri: page,
    display_name: row.name,
    note: noteHtml(row.description),
    avatar: absolute(origin, avatarUrl('gp', row.id, row.gp_version)),
    locked: row.is_private || row.request_join,
    group: true,
    discoverable: !row.is_private,
    indexable: !row.is_private,
    created_at: dayOf(row.created_at),
    last_status_at: row.open && row.last_status_at !== null ? dayOf(row.last_status_at).slice(0, 10) : null,
    statuses_count: row.open ? row.statuses : 0,
    followers_count: row.open ? row.members : 0,
    following_count: 0,
  });
}

/** The author of a writing whose account is gone (or hidden): an account with nothing of its own. */
export function goneAccount(origin: string): Account {
  return accountOf(origin, {
    id: '0',
    username: DELETED,
    acct: DELETED,
    url: origin,
    uri: origin,
    display_name: DELETED,
    note: '',
    avatar: absolute(origin, avatarUrl('pfp', null, 0)),
    locked: false,
    group: false,
    discoverable: false,
    indexable: false,
    created_at: dayOf(0),
    last_status_at: null,
    statuses_count: 0,
    followers_count: 0,
    following_count: 0,
  });
}

/** The signed-in account with its `source` (what its owner may edit), for verify_credentials. */
export function credentialAccount(origin: string, viewer: Viewer, profile: Profile, statuses: number): CredentialAccount {
  const { user } = viewer;
  const url = `${origin}${appPaths.user(user.username)}`;
  const account = accountOf(origin, {
    id: user.id,
    username: user.username,
    acct: user.username,
    url,
    uri: url,
    display_name: user.username,
    note: noteHtml(user.bio),
    avatar: absolute(origin, profile.pfpUrl),
    locked: false,
    group: false,
    discoverable: Number(user.discoverable) === 1,
    indexable: Number(user.indexable) === 1,
    created_at: isoTime(user.created_at),
    last_status_at: null,
    statuses_count: statuses,
    followers_count: profile.followers,
    following_count: profile.following,
  });
  return { ...account, source: { privacy: 'public', sensitive: false, language: user.language, note: user.bio, fields: [], follow_requests_count: 0 } };
}
