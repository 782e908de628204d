import { describe, expect, it } from 'vitest';
import { createI18n } from '../lib/i18n';
import { formatMonthYearInPhrase } from './month-year';

const NOVEMBER = Date.UTC(2026, 10, 15);

describe('month and year inside a sentence', () => {
  it('declines the Czech month, as after "od" or "Založena"', () => {
    expect(formatMonthYearInPhrase(NOVEMBER, 'cs')).toBe('listopadu 2026');
    expect(formatMonthYearInPhrase(Date.UTC(2026, 0, 15), 'cs')).toBe('ledna 2026');
  });

  it('leaves languages without cases as they are', () => {
    expect(formatMonthYearInPhrase(NOVEMBER, 'en')).toBe('November 2026');
  });

  it('reads as a sentence in the profile and group texts', () => {
    const cs = createI18n({ lng: 'cs' });
    expect(cs.t('member_since', { ns: 'profile', date: formatMonthYearInPhrase(NOVEMBER, 'cs') })).toBe('Členem od listopadu 2026');
    expect(cs.t('created', { ns: 'groups', date: formatMonthYearInPhrase(NOVEMBER, 'cs') })).toBe('Založena v listopadu 2026');
    const en = createI18n({ lng: 'en' });
    expect(en.t('member_since', { ns: 'profile', date: formatMonthYearInPhrase(NOVEMBER, 'en') })).toBe('Member since November 2026');
  });
});
