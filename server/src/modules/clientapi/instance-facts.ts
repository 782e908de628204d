import type { RegistrationMode } from '#core/api/registration';
import { registrationSettings } from '../auth/registration.service.js';
import type { ServiceContext } from '../../lib/service-context.js';
import { instanceSettings } from '../instance/instance.service.js';
import { localUserCount } from './clientapi.repository.js';

/**
 * What the instance says of itself to apps, read in this one place: its name, a description,
 * rules, a contact address, its sign-up mode and how many people have accounts.
 */
export interface InstanceFacts {
  host: string;
  publicUrl: string;
  name: string;
  description: string;
  rules: readonly string[];
  contact: string;
  registrations: RegistrationMode;
  users: number;
}

/** The facts as the instance has them now: the moderators' settings (an unnamed instance is called by its host). */
export async function instanceFacts(ctx: ServiceContext): Promise<InstanceFacts> {
  const { publicUrl } = ctx.app.config;
  const host = new URL(publicUrl).host;
  const [settings, registration, users] = await Promise.all([
    instanceSettings(ctx),
    registrationSettings(ctx.db, ctx.app.config),
    localUserCount(ctx.db),
  ]);
  return {
    host,
    publicUrl: publicUrl.replace(/\/$/u, ''),
    name: settings.name,
    description: settings.description,
    rules: settings.rules,
    contact: settings.contact,
    registrations: registration.mode,
    users,
  };
}
