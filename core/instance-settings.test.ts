import { describe, expect, it } from 'vitest';
import { INSTANCE_LIMITS, type InstanceSettingsInput, normalizeInstanceSettings, validateInstanceSettings } from './instance-settings';

const settings = (change: Partial<InstanceSettingsInput> = {}): InstanceSettingsInput => ({
  name: 'Kruh on the hill',
  description: 'Neighbours and their gardens.',
  about: 'We meet on Sundays.',
  rules: ['Be kind.'],
  contact: 'admin@kruh.example',
  ...change,
});

describe('instance settings as stored', () => {
  it('keeps the name, the description and each rule on one trimmed line, the about text trimmed, the address lowercased', () => {
    expect(
      normalizeInstanceSettings({
        name: '  Kruh \n on\tthe   hill ',
        description: ' Neighbours\r\nand   gardens. ',
        about: '\n  We meet\n\non Sundays.  \n',
        rules: ['  Be\nkind. ', 'No   spam.'],
        contact: '  Admin@Kruh.Example ',
      }),
    ).toEqual({
      name: 'Kruh on the hill',
      description: 'Neighbours and gardens.',
      about: 'We meet\n\non Sundays.',
      rules: ['Be kind.', 'No spam.'],
      contact: 'admin@kruh.example',
    });
  });

  it('drops a rule that shows nothing, and an about text of only whitespace', () => {
    expect(normalizeInstanceSettings(settings({ rules: ['  ', '\n\t', 'Be kind.', '\u200B'], about: ' \n \n ' }))).toMatchObject({
      rules: ['Be kind.'],
      about: '',
    });
  });

  it('leaves settings already stored as they are', () => {
    const stored = settings();
    expect(normalizeInstanceSettings(stored)).toEqual(stored);
  });
});

describe('instance settings rules', () => {
  it('has limits the form and the server share', () => {
    expect(INSTANCE_LIMITS).toEqual({ nameMax: 64, descriptionMax: 300, aboutMax: 5000, aboutMaxLines: 200, rulesMax: 20, ruleMax: 300 });
  });

  it('takes settings within every limit, and empty ones', () => {
    expect(validateInstanceSettings(settings())).toBeNull();
    expect(validateInstanceSettings({ name: '', description: '', about: '', rules: [], contact: '' })).toBeNull();
    expect(
      validateInstanceSettings(
        settings({
          name: '😀'.repeat(64),
          description: 'd'.repeat(300),
          about: Array.from({ length: 200 }, () => 'a').join('\n'),
          rules: Array.from({ length: 20 }, () => 'r'.repeat(300)),
        }),
      ),
    ).toBeNull();
    expect(validateInstanceSettings(settings({ about: 'a'.repeat(5000) }))).toBeNull();
  });

  it('refuses each limit passed by one, with its own key', () => {
    expect(validateInstanceSettings(settings({ name: 'n'.repeat(65) }))).toBe('max_instance_name_length');
    expect(validateInstanceSettings(settings({ name: '😀'.repeat(65) }))).toBe('max_instance_name_length');
    expect(validateInstanceSettings(settings({ description: 'd'.repeat(301) }))).toBe('max_instance_description_length');
    expect(validateInstanceSettings(settings({ about: 'a'.repeat(5001) }))).toBe('max_instance_about_length');
    expect(validateInstanceSettings(settings({ about: Array.from({ length: 201 }, () => 'a').join('\n') }))).toBe('max_instance_about_length');
    expect(validateInstanceSettings(settings({ rules: Array.from({ length: 21 }, (_, i) => `Rule ${i}`) }))).toBe('max_instance_rules');
    expect(validateInstanceSettings(settings({ rules: ['ok', 'r'.repeat(301)] }))).toBe('max_instance_rule_length');
  });

  it('takes an empty contact or an address, and refuses what is not one', () => {
    expect(validateInstanceSettings(settings({ contact: '' }))).toBeNull();
    expect(validateInstanceSettings(settings({ contact: 'not an address' }))).toBe('invalid_email');
  });

  it('tells the first broken rule: name, description, about, rules, rule length, contact', () => {
    const broken = settings({
      name: 'n'.repeat(65),
      description: 'd'.repeat(301),
      about: 'a'.repeat(5001),
      rules: Array.from({ length: 21 }, () => 'r'.repeat(301)),
      contact: 'nope',
    });
    expect(validateInstanceSettings(broken)).toBe('max_instance_name_length');
    expect(validateInstanceSettings({ ...broken, name: '' })).toBe('max_instance_description_length');
    expect(validateInstanceSettings({ ...broken, name: '', description: '' })).toBe('max_instance_about_length');
    expect(validateInstanceSettings({ ...broken, name: '', description: '', about: '' })).toBe('max_instance_rules');
    expect(validateInstanceSettings({ ...broken, name: '', description: '', about: '', rules: ['r'.repeat(301)] })).toBe('max_instance_rule_length');
    expect(validateInstanceSettings({ ...broken, name: '', description: '', about: '', rules: [] })).toBe('invalid_email');
  });
});
