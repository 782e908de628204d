import type { Account } from './account.api';

export const ME = 'a'.repeat(24);

export function apiAccount(extra: Partial<Account> = {}): Account {
  return {
    _id: ME,
    username: 'me',
    email: 'me@example.com',
    bio: 'hello there',
    pfp: ME,
    pfpUrl: `/media/pfp/${ME}.jpeg`,
    createdAt: Date.UTC(2025, 10, 15),
    isGoogle: false,
    language: 'en',
    notifications: [true, true, true, true, true, true],
    ...extra,
  };
}
