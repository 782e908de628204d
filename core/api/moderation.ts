import { type Static, Type } from '@sinclair/typebox';
import { Nullable, PathText, moderatorsChange, moderatorsList, pageOf } from './common.js';
import { endpoint } from './endpoint.js';

/** Blocked domains listed per page of the moderation screen's section. */
export const DOMAIN_BLOCKS_PAGE_SIZE = 20;

/** The longest host name there is. */
export const DOMAIN_MAX = 253;

/** A host name, e.g. `spam.example`; case, surrounding spaces and a final dot are ignored. */
export const DomainBody = Type.Object({ domain: Type.String({ minLength: 1, maxLength: DOMAIN_MAX }) });
export type DomainBody = Static<typeof DomainBody>;
export const DomainParams = Type.Object({ domain: PathText });

/** One blocked domain: when, and by whom (null once that account is gone). */
export const DomainBlockItem = Type.Object({ domain: Type.String(), createdAt: Type.Number(), createdBy: Nullable(Type.String()) });
export type DomainBlockItem = Static<typeof DomainBlockItem>;
export const DomainBlocksReply = pageOf('domains', DomainBlockItem);
export type DomainBlocksReply = Static<typeof DomainBlocksReply>;

/** What blocking a domain and lifting the block share: the rule they keep, and their refusals. */
const onDomain = {
  description:
    'A blocked domain, and every subdomain of it, is cut off from federation: nothing is delivered to it, its servers\' ' +
    'activities are refused, its follows of local users and groups end, and its accounts are suspended (their content ' +
    'hidden). Lifting the block lifts the suspensions it made; ended follows stay ended. Setting a state that is already ' +
    'set changes nothing and succeeds.',
  ...moderatorsChange('invalid_domain'),
} as const;

/** The instance moderators' boundaries of federation. */
export const moderationApi = {
  domainBlocks: moderatorsList('/moderation/domain-blocks', 'The blocked domains, latest first (instance moderators)', DomainBlocksReply),
  blockDomain: endpoint({
    method: 'POST',
    path: '/moderation/domain-blocks',
    summary: 'Block a domain and its subdomains from federating with the instance (instance moderators)',
    body: DomainBody,
    ...onDomain,
  }),
  unblockDomain: endpoint({
    method: 'DELETE',
    path: '/moderation/domain-blocks/:domain',
    summary: 'Lift the block of a domain (instance moderators)',
    params: DomainParams,
    ...onDomain,
  }),
} as const;
