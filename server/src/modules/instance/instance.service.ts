import type { InstanceSettings, InstanceSettingsBody } from '#core/api/instance';
import { type InstanceSettingsInput, normalizeInstanceSettings, validateInstanceSettings } from '#core/instance-settings';
import { badRequest } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import type { Executor } from '../../db/schema.js';
import { requireModerator } from '../../policy/moderators.js';
import * as repo from './instance.repository.js';

/**
 * The instance's name, description, about text, rules and contact address: set by its moderators,
 * read by anyone (the about page, the sign-up form, NodeInfo). Before the first save the instance
 * has no rules and is named after its host.
 */

const UNSET: InstanceSettingsInput = { name: '', description: '', about: '', rules: [], contact: '' };

/** The settings as shown: an instance that has not named itself is called by its host. */
function shown(ctx: ServiceContext, stored: InstanceSettingsInput): InstanceSettings {
  return { ...stored, name: stored.name || new URL(ctx.app.config.publicUrl).host };
}

/** GET /instance (anyone). */
export async function instanceSettings(ctx: ServiceContext): Promise<InstanceSettings> {
  return shown(ctx, (await repo.readSettings(ctx.db)) ?? UNSET);
}

/** PUT /instance (instance moderators), on the route's transaction: the whole set, normalised, checked, stored. */
export async function updateInstanceSettings(ctx: ServiceContext, viewer: Viewer, body: InstanceSettingsBody): Promise<InstanceSettings> {
  requireModerator(viewer);
  const settings = normalizeInstanceSettings(body);
  const broken = validateInstanceSettings(settings);
  if (broken) throw badRequest(broken);
  await repo.writeSettings(ctx.db, settings, viewer.id);
  return shown(ctx, settings);
}

/**
 * A sign-up's acceptance of the rules: while the instance has any, a sign-up that did not accept
 * them is refused (rules_not_accepted); an instance without rules asks nothing.
 */
export async function requireRulesAccepted(db: Executor, accepted: boolean | undefined): Promise<void> {
  if (accepted) return;
  if (((await repo.readSettings(db))?.rules.length ?? 0) > 0) throw badRequest('rules_not_accepted');
}
