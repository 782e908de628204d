import type { Kysely } from 'kysely';
import { recomputeSkeletons, SKELETON_COLUMNS } from './name-skeleton-columns.js';

/**
 * The skeleton now folds a bar with I, l and 1, so "al|ce" and "a|ice" are look-alikes of "alice".
 * Stored skeletons are recomputed; where two existing names now share one, the older keeps it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const columns of SKELETON_COLUMNS) await recomputeSkeletons(db, columns);
}

/** The earlier folding is gone from the code, so going back leaves the stricter skeletons in place. */
export async function down(): Promise<void> {}
