import { MARKER_TIMELINES, type MarkerTimeline, type Markers, type Preferences, type Suggestion, type ExtendedDescription } from '#core/api/client-entities';
import type { ServiceContext } from '../../lib/service-context.js';
import { escapeHtml, inParagraphs } from '../../lib/text-html.js';
import type { Viewer } from '../../lib/viewer.js';
import { instanceSettings } from '../instance/instance.service.js';
import { suggestGroups, suggestUsers } from '../suggestions/suggestions.service.js';
import { isoTime } from './account.mapper.js';
import { accountsInOrder } from './accounts.service.js';
import { groupAccountId } from './client-ids.js';
import * as repo from './clientapi.repository.js';

/** GET /api/v2/suggestions: Kruh's own suggestions, people then public groups; none for a visitor. */
export async function suggestions(ctx: ServiceContext, viewer: Viewer | null, limit: number): Promise<Suggestion[]> {
  if (!viewer) return [];
  const [users, groups] = await Promise.all([suggestUsers(ctx, viewer), suggestGroups(ctx, viewer)]);
  const ids = [...users.users.map((user) => user._id), ...groups.groups.map((group) => groupAccountId(group._id))].slice(0, limit);
  const accounts = await accountsInOrder(ctx, viewer, ids);
  return accounts.map((account) => ({ source: 'global', sources: ['featured'], account }));
}

/** GET /api/v1/instance/extended_description: the moderators' about text, as HTML. */
export async function extendedDescription(ctx: ServiceContext): Promise<ExtendedDescription> {
  const settings = await instanceSettings(ctx);
  const about = settings.about.trim();
  return { updated_at: isoTime(Date.now()), content: about === '' ? '' : inParagraphs(escapeHtml(about)) };
}

/** GET /api/v1/preferences: everything is posted in public here, with no warning unless one is written. */
export function preferences(viewer: Viewer): Preferences {
  return {
    'posting:default:visibility': 'public',
    'posting:default:sensitive': false,
    'posting:default:language': viewer.user.language || null,
    'reading:expand:media': 'default',
    'reading:expand:spoilers': false,
  };
}

const isTimeline = (name: string): name is MarkerTimeline => (MARKER_TIMELINES as readonly string[]).includes(name);

/** GET /api/v1/markers: the caller's read positions of the timelines asked for (unknown names ignored). */
export async function markers(ctx: ServiceContext, viewer: Viewer, timelines: readonly string[]): Promise<Markers> {
  const rows = await repo.markersOf(ctx.db, viewer.id, timelines.filter(isTimeline));
  return Object.fromEntries(rows.map((row) => [row.timeline, { last_read_id: row.last_read_id, version: row.version, updated_at: isoTime(row.updated_at) }]));
}

/** POST /api/v1/markers, on the route's transaction: keeps each position given, answers them. */
export async function saveMarkers(ctx: ServiceContext, viewer: Viewer, positions: Partial<Record<MarkerTimeline, string>>): Promise<Markers> {
  const now = Date.now();
  const given = MARKER_TIMELINES.filter((timeline) => positions[timeline] !== undefined);
  for (const timeline of given) await repo.saveMarker(ctx.db, viewer.id, timeline, positions[timeline]!, now);
  return markers(ctx, viewer, given);
}
