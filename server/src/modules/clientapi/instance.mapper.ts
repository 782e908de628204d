import type { InstanceV1, InstanceV2, Rule } from '#core/api/client';
import { LIMITS } from '#core/limits';
import packageJson from '../../../../package.json' with { type: 'json' };
import { ACCEPTED_FORMATS } from '../media/images.js';
import type { InstanceFacts } from './instance-facts.js';

/**
 * The instance entity, in both versions of the call. Apps read the version to tell what the
 * server can do, so it names the API level Kruh follows first and Kruh itself after.
 */
export const CLIENT_API_VERSION = `4.3.0 (compatible; Kruh ${packageJson.version})`;

/** The limits apps check before sending: Kruh's own, from core. Kruh takes no videos and no polls. */
const configuration = {
  accounts: { max_featured_tags: 0, max_pinned_statuses: 0 },
  statuses: {
    max_characters: LIMITS.textMaxLength,
    max_media_attachments: LIMITS.imagesPerPost,
    // Kruh counts an address by its characters; this is the figure apps expect, so a long link may
    // still be refused by the server's own count (max_post_length).
    characters_reserved_per_url: 23,
  },
  media_attachments: {
    supported_mime_types: [...ACCEPTED_FORMATS].map((format) => `image/${format}`),
    image_size_limit: LIMITS.imageMaxBytes,
    image_matrix_limit: LIMITS.imageMaxPixels,
    video_size_limit: 0,
    video_frame_rate_limit: 0,
    video_matrix_limit: 0,
    description_limit: LIMITS.imageAltMaxLength,
  },
};

/** The rules as apps list them, numbered from 1 in the moderators' order. */
export const rulesOf = (facts: InstanceFacts): Rule[] => facts.rules.map((text, i) => ({ id: String(i + 1), text, hint: '' }));
const streamingUrl = (facts: InstanceFacts) => facts.publicUrl.replace(/^http/u, 'ws');
const thumbnailUrl = (facts: InstanceFacts) => `${facts.publicUrl}/icons/icon-512.png`;
const LANGUAGES = ['en', 'cs'];

export function instanceV1(facts: InstanceFacts): InstanceV1 {
  return {
    uri: facts.host,
    title: facts.name,
    short_description: facts.description,
    description: facts.description,
    email: facts.contact,
    version: CLIENT_API_VERSION,
    urls: { streaming_api: streamingUrl(facts) },
    stats: { user_count: facts.users, status_count: 0, domain_count: 0 },
    thumbnail: thumbnailUrl(facts),
    languages: LANGUAGES,
    registrations: facts.registrations !== 'closed',
    approval_required: facts.registrations === 'approval',
    invites_enabled: facts.registrations === 'invitation',
    configuration,
    contact_account: null,
    rules: rulesOf(facts),
  };
}

export function instanceV2(facts: InstanceFacts): InstanceV2 {
  return {
    domain: facts.host,
    title: facts.name,
    version: CLIENT_API_VERSION,
    // The repository's address is not known to a deployment: the instance points at itself.
    source_url: facts.publicUrl,
    description: facts.description,
    usage: { users: { active_month: facts.users } },
    thumbnail: { url: thumbnailUrl(facts) },
    languages: LANGUAGES,
    configuration: { urls: { streaming: streamingUrl(facts) }, ...configuration, translation: { enabled: false } },
    registrations: {
      enabled: facts.registrations !== 'closed',
      approval_required: facts.registrations === 'approval',
      message: null,
      url: null,
    },
    api_versions: { mastodon: 2 },
    contact: { email: facts.contact, account: null },
    rules: rulesOf(facts),
  };
}
