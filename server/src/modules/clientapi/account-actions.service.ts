import type { Relationship } from '#core/api/client-entities';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import * as blocks from '../blocks/blocks.service.js';
import * as follows from '../follows/follows.service.js';
import { joinGroup, leaveGroup, loadGroupById, requestJoin, withdrawRequest } from '../groups/groups.service.js';
import { getAccount, relationships } from './accounts.service.js';
import { accountRefOf } from './client-ids.js';

/** What an app asks of an account. */
export type AccountAction = 'follow' | 'unfollow' | 'block' | 'unblock' | 'mute' | 'unmute';

/**
 * The caller's standing towards an account, changed as the web app's calls change it (so their
 * rules, limits, events and federation apply) and answered as it is after. Apps send these calls
 * again freely (a second follow, an unfollow of someone not followed), so one that finds the
 * standing already as asked changes nothing and answers it.
 *
 * A group's account stands for membership: following it joins a group anyone may join and asks to
 * join one that takes requests or is private (`requested` until an admin answers); unfollowing leaves
 * it or withdraws the request. A group is not blocked or muted (group_account_action).
 */
export async function accountAction(ctx: ServiceContext, viewer: Viewer, input: { id: string; action: AccountAction }): Promise<Relationship> {
  const { id, action } = input;
  const ref = accountRefOf(id);
  // Only an account the caller may read is acted on; any other answers as one that does not exist.
  if (!ref) throw notFound('user_not_found');
  await getAccount(ctx, viewer, id);
  const before = (await relationships(ctx, viewer, [id]))[0]!;
  if (ref.kind === 'group') {
    if (action !== 'follow' && action !== 'unfollow') throw new AppError(422, 'group_account_action');
    if (action === 'follow' && !before.following && !before.requested) {
      const group = await loadGroupById(ctx.db, ref.id);
      await (group.request_join || group.is_private ? requestJoin : joinGroup)(ctx, viewer, ref.id);
    }
    if (action === 'unfollow' && before.following) await leaveGroup(ctx, viewer, ref.id);
    if (action === 'unfollow' && before.requested) await withdrawRequest(ctx, viewer, ref.id);
  } else {
    const change = personChange(before, action);
    if (change) await change(ctx, viewer, ref.id);
  }
  return (await relationships(ctx, viewer, [id]))[0]!;
}

/** The service call that moves the standing towards a person as asked, or null when it already is. */
function personChange(before: Relationship, action: AccountAction): ((ctx: ServiceContext, viewer: Viewer, userId: string) => Promise<unknown>) | null {
  switch (action) {
    case 'follow':
      return before.following ? null : follows.follow;
    case 'unfollow':
      return before.following ? follows.unfollow : null;
    case 'block':
      return before.blocking ? null : blocks.block;
    case 'unblock':
      return before.blocking ? blocks.unblock : null;
    case 'mute':
      return before.muting ? null : blocks.mute;
    case 'unmute':
      return before.muting ? blocks.unmute : null;
  }
}
