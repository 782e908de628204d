import { type Language, accountApi } from '#core/api/account';
import { callApi } from '../../api/client';
import { type KruhDb, getDb } from '../../db/db';
import { withRoom } from '../../db/prune';
import { patchStoredAccount, readStoredAccount } from '../../stored-account';
import { foldToggle, sendQueued } from '../queue';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

/** The language the server writes the account's emails and notifications in. */
export interface LanguagePayload {
  language: Language;
  /** The server's language when the first change was made (a refusal goes back to it). */
  from: Language;
}

declare module '../../db/db' {
  interface OutboxKinds {
    language: { payload: LanguagePayload; target: string };
  }
}

const LANGUAGE_TARGET = 'account:language';

/**
 * Sets the language the server writes the account's emails and notifications in. Changes not sent
 * yet fold into one row, and going back to the server's language removes it; the stored account
 * takes the language at once, so the account screen shows the choice offline.
 */
export async function queueLanguage(language: Language, db: KruhDb = getDb()): Promise<void> {
  await withRoom(db, () => db.transaction('rw', db.outbox, db.meta, async () => {
    // The account's language is one the server accepted, so one of the app's languages.
    const known = ((await readStoredAccount(db))?.language ?? language) as Language;
    await patchStoredAccount(db, { language });
    await foldToggle<OutboxRowOf<'language'>>(db, {
      kind: 'language',
      target: LANGUAGE_TARGET,
      state: 'language',
      known,
      change: { language },
    });
  }));
  sendQueued();
}

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
