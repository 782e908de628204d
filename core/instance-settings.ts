import type { ServerErrorKey } from './errors.js';
import { isBlank, lineCount, storedLength, trimText } from './text.js';
import { normalizeEmail, validateEmail } from './validation.js';

/**
 * What the instance says about itself (its name, a one-line description, a longer text about it,
 * its rules and an address to write to), set by the instance moderators and shown on the about
 * page, at sign-up and in NodeInfo. The server and the settings form check the same rules here.
 */
export const INSTANCE_LIMITS = {
  nameMax: 64,
  descriptionMax: 300,
  aboutMax: 5000,
  aboutMaxLines: 200,
  rulesMax: 20,
  ruleMax: 300,
} as const;

export interface InstanceSettingsInput {
  name: string;
  description: string;
  about: string;
  rules: string[];
  contact: string;
}

/** One line, trimmed: a run of whitespace (line breaks too) becomes one space. */
const oneLine = (text: string) => trimText(text.replace(/\s+/gu, ' '));

/**
 * The settings as stored: the name, the description and each rule kept on one line and trimmed, the
 * about text trimmed, a rule showing nothing dropped, the address lowercased.
 */
export function normalizeInstanceSettings(input: InstanceSettingsInput): InstanceSettingsInput {
  return {
    name: oneLine(input.name),
    description: oneLine(input.description),
    about: isBlank(input.about) ? '' : trimText(input.about),
    rules: input.rules.map(oneLine).filter((rule) => !isBlank(rule)),
    contact: normalizeEmail(input.contact),
  };
}

/** The first broken rule of settings already normalised, as a catalogue key, or null. */
export function validateInstanceSettings(settings: InstanceSettingsInput): ServerErrorKey | null {
  if ([...settings.name].length > INSTANCE_LIMITS.nameMax) return 'max_instance_name_length';
  if (storedLength(settings.description) > INSTANCE_LIMITS.descriptionMax) return 'max_instance_description_length';
  if (storedLength(settings.about) > INSTANCE_LIMITS.aboutMax || lineCount(settings.about) > INSTANCE_LIMITS.aboutMaxLines) {
    return 'max_instance_about_length';
  }
  if (settings.rules.length > INSTANCE_LIMITS.rulesMax) return 'max_instance_rules';
  if (settings.rules.some((rule) => storedLength(rule) > INSTANCE_LIMITS.ruleMax)) return 'max_instance_rule_length';
  if (settings.contact !== '' && validateEmail(settings.contact)) return 'invalid_email';
  return null;
}
