import { type Static, Type } from '@sinclair/typebox';
import { messageWith } from './common.js';
import { endpoint, plainEntry } from './endpoint.js';

/**
 * What the instance says about itself. `name` is never empty: an instance that has not named itself
 * answers its host. `rules` are in order, one line each; `contact` is an address, or empty.
 */
export const InstanceSettings = Type.Object({
  name: Type.String(),
  description: Type.String(),
  about: Type.String(),
  rules: Type.Array(Type.String()),
  contact: Type.String(),
});
export type InstanceSettings = Static<typeof InstanceSettings>;

/**
 * The settings to store, as loose strings of the same shape: the rules (core/instance-settings)
 * answer their own keys, and the request's size limit keeps absurd bodies out. An empty name gives
 * the instance its host's name again.
 */
export const InstanceSettingsBody = InstanceSettings;
export type InstanceSettingsBody = Static<typeof InstanceSettingsBody>;

export const InstanceSettingsSaved = messageWith({ instance: InstanceSettings });

const SETTINGS_ERRORS = [
  'moderators_only',
  'invalid_settings',
  'max_instance_name_length',
  'max_instance_description_length',
  'max_instance_about_length',
  'max_instance_rules',
  'max_instance_rule_length',
  'invalid_email',
] as const;

/** The instance's name, description, about text, rules and contact address. */
export const instanceApi = {
  get: plainEntry('GET', '/instance', "The instance's name, description, about text, rules and contact address (anyone, visitors too)", InstanceSettings),
  update: endpoint({
    method: 'PUT',
    path: '/instance',
    summary: "Set the instance's name, description, about text, rules and contact address (instance moderators)",
    description:
      'The whole set is replaced. While the instance has rules, a sign-up must accept them (rules_not_accepted). ' +
      'NodeInfo carries the name and description (nodeName, nodeDescription), the rules and the address.',
    body: InstanceSettingsBody,
    replies: { 200: InstanceSettingsSaved },
    invalidKey: 'invalid_settings',
    errors: [...SETTINGS_ERRORS],
  }),
} as const;
