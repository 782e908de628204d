import { describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { titleFor } from './screen-title';

describe('screen titles', () => {
  it('titles each screen as the server titles its address, in both languages', () => {
    const en = createI18n({ lng: 'en' }).getFixedT('en', 'links');
    const cs = createI18n({ lng: 'cs' }).getFixedT('cs', 'links');
    expect(titleFor('/u/alice', 'alice', undefined, en)).toBe('@alice on Kruh');
    expect(titleFor('/u/alice/groups', 'alice', undefined, cs)).toBe('@alice na Kruhu');
    expect(titleFor('/g/cats', '', undefined, en)).toBe('&cats on Kruh');
    expect(titleFor('/h/k%C5%AF%C5%88', '', undefined, cs)).toBe('#kůň na Kruhu');
    expect(titleFor('/p/abc', 'Post', 'bob', en)).toBe('@bob on Kruh');
    expect(titleFor('/p/abc', 'Post', undefined, en)).toBe('Post · Kruh');
    expect(titleFor('/notifications', ' Notifications ', undefined, en)).toBe('Notifications · Kruh');
    expect(titleFor('/notifications', 'Oznámení', undefined, cs)).toBe('Oznámení · Kruh');
    expect(titleFor('/', '', undefined, en)).toBe('Kruh');
  });
});
