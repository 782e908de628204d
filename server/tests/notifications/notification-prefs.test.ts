import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, NOTIFICATION_SETTINGS } from '#core/limits';
import {
  parseNotificationSettings,
  storedNotificationSettings,
  wants,
} from '../../src/policy/notification-prefs';

/**
 * The stored notification switches, read by one set of rules for both the account screen and the
 * fan-out: what the user sees switched on is what they get.
 */

type Setting = (typeof NOTIFICATION_SETTINGS)[number];
/** A stored list with every switch on but `off`. */
const allBut = (off: Setting) => JSON.stringify(NOTIFICATION_SETTINGS.map((name) => name !== off));

describe('parseNotificationSettings', () => {
  it('gives one switch per setting, every one on by default', () => {
    expect(DEFAULT_NOTIFICATION_SETTINGS).toEqual(NOTIFICATION_SETTINGS.map(() => true));
    expect(parseNotificationSettings('[true,true,true,true,true,true]')).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('keeps what was stored, in order', () => {
    const stored = [false, true, false, true, true, false];
    expect(parseNotificationSettings(JSON.stringify(stored))).toEqual(stored);
    expect(parseNotificationSettings(storedNotificationSettings(stored))).toEqual(stored);
  });

  it('gives a switch missing from a shorter list its default', () => {
    expect(parseNotificationSettings('[false, false]')).toEqual([false, false, ...DEFAULT_NOTIFICATION_SETTINGS.slice(2)]);
    expect(parseNotificationSettings('[]')).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('gives a switch that is not a boolean its default, and keeps the others', () => {
    expect(parseNotificationSettings('[0, "false", null, false, {}, []]')).toEqual([true, true, true, false, true, true]);
  });

  it('ignores entries past the known settings', () => {
    expect(parseNotificationSettings('[false, false, false, false, false, false, false]')).toHaveLength(NOTIFICATION_SETTINGS.length);
  });

  it('reads a value that is not a JSON list as all defaults', () => {
    for (const stored of ['not json', '', '{"reply":false}', 'false', 'null', '"[false]"']) {
      expect(parseNotificationSettings(stored)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    }
  });
});

describe('wants: a recipient account setting', () => {
  it('reads the setting at its own place in the stored list', () => {
    for (const setting of NOTIFICATION_SETTINGS) {
      expect(wants(parseNotificationSettings(allBut(setting)), setting)).toBe(false);
      for (const other of NOTIFICATION_SETTINGS) {
        if (other !== setting) expect(wants(parseNotificationSettings(allBut(setting)), other)).toBe(true);
      }
    }
  });

  it('treats a missing entry or an unreadable list as on, and an unknown recipient as not wanting anything', () => {
    expect(wants(parseNotificationSettings('[]'), 'reply')).toBe(true);
    expect(wants(parseNotificationSettings('{"reply":false}'), 'reply')).toBe(true);
    expect(wants(parseNotificationSettings('not json'), 'reply')).toBe(true);
    expect(wants(undefined, 'reply')).toBe(false);
  });
});
