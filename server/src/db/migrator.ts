import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Db } from './schema.js';
import * as base from './migrations/20261122_01_base.js';
import * as accountCleanup from './migrations/20261122_10_account_cleanup.js';
import * as searchIndexes from './migrations/20261122_20_search_indexes.js';
import * as postIndexes from './migrations/20261122_30_post_indexes.js';
import * as notificationIndexes from './migrations/20261122_60_notification_indexes.js';
import * as rateEvents from './migrations/20261123_01_rate_events.js';
import * as nameSkeletons from './migrations/20261123_30_name_skeletons.js';
import * as idempotencyRequests from './migrations/20261123_40_idempotency_requests.js';
import * as mediaVersions from './migrations/20261123_50_media_versions.js';
import * as listingOrderIndexes from './migrations/20261125_01_listing_order_indexes.js';
import * as pushSubscriptions from './migrations/20261125_10_push_subscriptions.js';
import * as passkeys from './migrations/20261125_20_passkeys.js';
import * as reports from './migrations/20261125_40_reports.js';
import * as blocksAndMutes from './migrations/20261126_10_blocks_and_mutes.js';
import * as moderation from './migrations/20261126_20_moderation.js';
import * as mediaAltAndWarnings from './migrations/20261125_30_media_alt_and_warnings.js';
import * as postEdits from './migrations/20261126_30_post_edits.js';
import * as userSearchOrder from './migrations/20261126_40_user_search_order.js';
import * as suspendedUsersIndex from './migrations/20261126_50_suspended_users_index.js';
import * as groupTagsRestrict from './migrations/20261127_10_group_tags_restrict.js';
import * as skeletonsFoldLatinLookAlikes from './migrations/20261127_20_skeletons_fold_latin_look_alikes.js';
import * as exportLikeIndexes from './migrations/20261127_30_export_like_indexes.js';
import * as pushFailuresAndJobLanes from './migrations/20261127_40_push_failures_and_job_lanes.js';
import * as federationKeys from './migrations/20261127_50_federation_keys.js';
import * as remoteFollows from './migrations/20261127_60_remote_follows.js';
import * as remoteAccounts from './migrations/20261127_70_remote_accounts.js';
import * as domainBlocks from './migrations/20261127_80_domain_blocks.js';
import * as postShares from './migrations/20261127_90_post_shares.js';
import * as federationPresence from './migrations/20261128_60_federation_presence.js';
import * as remoteFollowIds from './migrations/20261128_95_remote_follow_ids.js';
import * as remoteHostsNormalized from './migrations/20261129_10_remote_hosts_normalized.js';
import * as jobHosts from './migrations/20261129_30_job_hosts.js';
import * as remoteCommunities from './migrations/20261129_60_remote_communities.js';
import * as commentPicturesWait from './migrations/20261129_70_comment_pictures_wait.js';
import * as groupReportViews from './migrations/20261129_80_group_report_views.js';
import * as skeletonsFoldBar from './migrations/20261129_90_skeletons_fold_bar.js';
import * as registration from './migrations/20261201_10_registration.js';
import * as clientMarkers from './migrations/20261201_16_client_markers.js';
import * as stagedUploads from './migrations/20261201_17_staged_uploads.js';
import * as instanceSettings from './migrations/20261201_20_instance_settings.js';
import * as remoteMediaCopies from './migrations/20261201_40_remote_media_copies.js';
import * as clientApps from './migrations/20261201_70_client_apps.js';
import * as oauthTokens from './migrations/20261201_15_oauth_tokens.js';
import * as clientPushSubscriptions from './migrations/20261201_18_client_push_subscriptions.js';
import * as accountCounts from './migrations/20261201_19_account_counts.js';
import * as postSharers from './migrations/20261201_21_post_sharers.js';
import * as accountLastStatus from './migrations/20261201_22_account_last_status.js';

/** Every migration, by name; names sort in the order they run. */
const MIGRATIONS: Record<string, Migration> = {
  '20261122_01_base': base,
  '20261122_10_account_cleanup': accountCleanup,
  '20261122_20_search_indexes': searchIndexes,
  '20261122_30_post_indexes': postIndexes,
  '20261122_60_notification_indexes': notificationIndexes,
  '20261123_01_rate_events': rateEvents,
  '20261123_30_name_skeletons': nameSkeletons,
  '20261123_40_idempotency_requests': idempotencyRequests,
  '20261123_50_media_versions': mediaVersions,
  '20261125_01_listing_order_indexes': listingOrderIndexes,
  '20261125_10_push_subscriptions': pushSubscriptions,
  '20261125_20_passkeys': passkeys,
  '20261125_30_media_alt_and_warnings': mediaAltAndWarnings,
  '20261125_40_reports': reports,
  '20261126_10_blocks_and_mutes': blocksAndMutes,
  '20261126_20_moderation': moderation,
  '20261126_30_post_edits': postEdits,
  '20261126_40_user_search_order': userSearchOrder,
  '20261126_50_suspended_users_index': suspendedUsersIndex,
  '20261127_10_group_tags_restrict': groupTagsRestrict,
  '20261127_20_skeletons_fold_latin_look_alikes': skeletonsFoldLatinLookAlikes,
  '20261127_30_export_like_indexes': exportLikeIndexes,
  '20261127_40_push_failures_and_job_lanes': pushFailuresAndJobLanes,
  '20261127_50_federation_keys': federationKeys,
  '20261127_60_remote_follows': remoteFollows,
  '20261127_70_remote_accounts': remoteAccounts,
  '20261127_80_domain_blocks': domainBlocks,
  '20261127_90_post_shares': postShares,
  '20261128_60_federation_presence': federationPresence,
  '20261128_95_remote_follow_ids': remoteFollowIds,
  '20261129_10_remote_hosts_normalized': remoteHostsNormalized,
  '20261129_30_job_hosts': jobHosts,
  '20261129_60_remote_communities': remoteCommunities,
  '20261129_70_comment_pictures_wait': commentPicturesWait,
  '20261129_80_group_report_views': groupReportViews,
  '20261129_90_skeletons_fold_bar': skeletonsFoldBar,
  '20261201_10_registration': registration,
  '20261201_16_client_markers': clientMarkers,
  '20261201_17_staged_uploads': stagedUploads,
  '20261201_20_instance_settings': instanceSettings,
  '20261201_40_remote_media_copies': remoteMediaCopies,
  '20261201_70_client_apps': clientApps,
  '20261201_15_oauth_tokens': oauthTokens,
  '20261201_18_client_push_subscriptions': clientPushSubscriptions,
  '20261201_19_account_counts': accountCounts,
  '20261201_21_post_sharers': postSharers,
  '20261201_22_account_last_status': accountLastStatus,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Db): Promise<string[]> {
  // PostgreSQL: Kysely looks for its bookkeeping tables in every schema and can mistake another
  // schema's (another app or test on the same database) for its own; name the connection's schema.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
      : undefined;
  // Changes made side by side land in any order, so a database may have taken a later-named one
  // before an earlier-named one arrives: that one is still applied, once, rather than refused.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
