import { accountApi } from '#core/api/account';
import { callApi } from '../../api/client';
import { patchStoredAccount } from '../../stored-account';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

/**
 * The account's language on the server (its emails and notifications). The stored account took
 * the new language when it was queued, so the account screen shows it offline; a refusal puts the
 * language the server kept back.
 */
export const languageHandler: OutboxHandler<OutboxRowOf<'language'>> = {
  async send(_db, row) {
    await callApi(accountApi.changeLanguage, { body: { language: row.payload.language } }, idempotent(row));
  },

  refusedFallback: 'invalid_settings',

  async giveBack(db, row) {
    await patchStoredAccount(db, { language: row.payload.from });
  },
};
