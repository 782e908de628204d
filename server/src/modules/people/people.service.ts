import { PEOPLE_PAGE_SIZE, type PeopleQuery, type PeopleReply } from '#core/api/people';
import { forbidden, notFound } from '../../lib/app-error.js';
import { pageWindow, toPage } from '../../lib/paging.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { requireModerator } from '../../policy/moderators.js';
import { logModeratorAction } from '../reports/moderation.service.js';
import * as repo from './people.repository.js';

/**
 * The instance's accounts as its moderators see them: found by a part of the name or address and by
 * standing, and the moderator role given and taken back. Suspension is the reports module's
 * (PUT and DELETE /reports/suspended/{userId}), the same for an account found here or in a report.
 */

/** GET /people (instance moderators): newest first; the addresses are shown to moderators only, as the whole list is. */
export async function listPeople(ctx: ServiceContext, viewer: Viewer, query: PeopleQuery): Promise<PeopleReply> {
  requireModerator(viewer);
  const window = pageWindow(query, PEOPLE_PAGE_SIZE);
  const { items, hasMore } = toPage(await repo.peoplePage(ctx.db, { query: query.query, state: query.state, before: query.before }, window), window);
  return {
    people: items.map((row) => ({
      _id: row.id,
      username: row.username,
      email: row.email,
      verified: Number(row.verified) === 1,
      suspended: row.suspended_at !== null,
      moderator: row.role === 'moderator',
      createdAt: Number(row.created_at),
    })),
    hasMore,
  };
}

/**
 * PUT and DELETE /people/{userId}/moderator (instance moderators), on the route's transaction, logged.
 * The last moderator cannot take the role from themselves: nobody could act on reports or give it
 * again but the operator. Setting the role an account has changes nothing and logs nothing.
 */
export async function setModerator(ctx: ServiceContext, viewer: Viewer, { userId, moderator }: { userId: string; moderator: boolean }): Promise<void> {
  requireModerator(viewer);
  const count = await repo.lockedModeratorCount(ctx.db);
  const role = await repo.roleOf(ctx.db, userId);
  if (role === undefined) throw notFound('user_not_found');
  if ((role === 'moderator') === moderator) return;
  if (!moderator && count <= 1) throw forbidden('last_moderator');
  await repo.setRole(ctx.db, userId, moderator ? 'moderator' : 'user');
  await logModeratorAction(ctx, viewer, moderator ? 'grant_moderator' : 'revoke_moderator', { kind: 'user', id: userId });
}
