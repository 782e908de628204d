import { isActor } from '@fedify/fedify/vocab';
import type { OutsideJob } from '../../../lib/jobs/job-handler.js';
import { buildFederation } from '../federation.js';
import { backfillOutbox } from './outbox-backfill.js';
import type { BackfillPayload } from '../../remote/remote-lookup.js';

/**
 * Stores the recent public posts of an actor just found by a search (see backfillOutbox). Done
 * once: a failure (an actor or outbox that cannot be read) is logged and the profile stays empty,
 * since its posts are only a courtesy and the account is found all the same.
 */
export const federationBackfillJob: OutsideJob<BackfillPayload> = {
  outside: async (app, { actorId }) => {
    try {
      // A plain context of the federation: its loader is the guarded one (domain blocks included),
      // and it tells this instance's own addresses (a mention of a local user) apart.
      const ctx = buildFederation(app).createContext(new URL(app.config.publicUrl), undefined);
      const actor = await ctx.lookupObject(actorId);
      if (isActor(actor) && actor.id?.href === actorId) await backfillOutbox(app, ctx, actor);
    } catch (error) {
      app.log.info({ err: error, actorId }, 'remote posts not backfilled');
    }
  },
};
