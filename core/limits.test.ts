import { describe, expect, it } from 'vitest';
import { GIF_LOCALES } from './api/gifs';
import {
  DEFAULT_NOTIFICATION_SETTINGS, DELETED, LIMITS, NOTIFICATION_SETTINGS, PAGE_SIZES, RATE_LIMIT_DEFAULTS,
} from './limits';

const HOUR = 60 * 60 * 1000;

describe('business constants', () => {
  it('marks removed accounts, groups and posts as <deleted>', () => {
    expect(DELETED).toBe('<deleted>');
  });

  it('switches every notification setting on by default, one switch per setting', () => {
    expect(DEFAULT_NOTIFICATION_SETTINGS).toHaveLength(NOTIFICATION_SETTINGS.length);
    expect(DEFAULT_NOTIFICATION_SETTINGS.every((on) => on === true)).toBe(true);
  });

  it('counts abuse limits over one hour and collapses notifications within one hour', () => {
    expect(RATE_LIMIT_DEFAULTS.windowMs).toBe(HOUR);
    expect(RATE_LIMIT_DEFAULTS.notificationCollapseMs).toBe(HOUR);
  });

  it('asks for one GIF catalogue: a locale the API accepts, of the country it names', () => {
    expect(GIF_LOCALES).toContain(LIMITS.gifLocale);
    expect(LIMITS.gifLocale.endsWith(`_${LIMITS.gifCountry}`)).toBe(true);
  });

  it('keeps each minimum under its maximum', () => {
    expect(LIMITS.usernameMin).toBeLessThan(LIMITS.usernameMax);
    expect(LIMITS.groupNameMin).toBeLessThan(LIMITS.groupNameMax);
    expect(LIMITS.passwordMin).toBeLessThan(LIMITS.passwordFormMax);
    expect(LIMITS.passwordFormMax).toBeLessThanOrEqual(LIMITS.passwordMax);
  });

  it('never pages beyond the server cap', () => {
    for (const size of Object.values(PAGE_SIZES)) expect(size).toBeLessThanOrEqual(LIMITS.maxPageSize);
    expect(LIMITS.gifPageSize).toBeLessThanOrEqual(LIMITS.maxPageSize);
  });
});
