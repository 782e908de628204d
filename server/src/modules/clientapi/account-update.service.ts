import type { FastifyInstance } from 'fastify';
import { normalizeName } from '#core/text';
import { validateBio } from '#core/validation';
import { AppError } from '../../lib/app-error.js';
import { contextOf, inNewTransaction } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import { changeBio, changeDiscovery, changeUsername } from '../account/account.service.js';
import { checkUsername, findAccount } from '../auth/auth.service.js';
import { uploadProfilePicture } from '../media/media.service.js';

/**
 * What an app may change of its account, read from JSON, a form or a multipart form alike: the
 * display name is the username here, the note the bio. What Kruh does not have (a header picture,
 * a locked or bot account, profile fields, posting defaults) is accepted and left out.
 */
export interface CredentialChanges {
  displayName?: string | undefined;
  note?: string | undefined;
  discoverable?: boolean | undefined;
  indexable?: boolean | undefined;
  avatar?: Buffer | null | undefined;
  /** Fields a multipart form cut at its size limit: their value is not what was sent. */
  truncated?: ReadonlySet<string> | undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A switch as JSON (true/false) or a form ("true", "1", "on"...) sends it; anything else is no change. */
function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true' || value === '1' || value === 'on') return true;
  if (value === false || value === 'false' || value === '0' || value === 'off') return false;
  return undefined;
}

/** The changes a request's fields ask for. */
export function credentialChangesOf(fields: Readonly<Record<string, unknown>>, extra: Pick<CredentialChanges, 'avatar' | 'truncated'> = {}): CredentialChanges {
  return {
    displayName: text(fields.display_name),
    note: text(fields.note),
    discoverable: flag(fields.discoverable),
    indexable: flag(fields.indexable),
    ...extra,
  };
}

/** A refusal of the account's own rules, answered as apps expect a value they got wrong: 422. */
async function unprocessable<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && (err.statusCode === 400 || err.statusCode === 409)) throw new AppError(422, err.key);
    throw err;
  }
}

/**
 * PATCH /api/v1/accounts/update_credentials: the same changes as the account's own settings, by the
 * same services and rules. The texts are checked before anything is kept; the avatar is stored
 * first (a file that is no image changes nothing), then the rest in one transaction. Answers the
 * account as it now is.
 */
export async function updateCredentials(app: FastifyInstance, viewer: Viewer, changes: CredentialChanges): Promise<Viewer> {
  if (changes.truncated?.has('note')) throw new AppError(422, 'max_bio_length');
  if (changes.truncated?.has('display_name')) throw new AppError(422, 'max_username_length');
  // Apps send the whole form back: a name or a bio as it is changes nothing.
  const rename = changes.displayName !== undefined && normalizeName(changes.displayName) !== viewer.username;
  const username = rename ? await unprocessable(async () => checkUsername(changes.displayName!)) : undefined;
  const note = changes.note !== undefined && changes.note.trim() !== viewer.user.bio ? changes.note : undefined;
  const bioProblem = note === undefined ? null : validateBio(note);
  if (bioProblem) throw new AppError(422, bioProblem);
  if (changes.avatar) {
    const file = changes.avatar;
    await unprocessable(() => uploadProfilePicture(contextOf(app), viewer, { file, fields: {} }));
  }
  await unprocessable(() =>
    inNewTransaction(app, async (ctx) => {
      if (username !== undefined) await changeUsername(ctx, viewer, username);
      if (note !== undefined) await changeBio(ctx, viewer, note);
      if (changes.discoverable !== undefined || changes.indexable !== undefined) {
        await changeDiscovery(ctx, viewer, { discoverable: changes.discoverable, indexable: changes.indexable });
      }
    }),
  );
  const user = await findAccount(app.db, viewer.id);
  if (!user) throw new AppError(401, 'invalid_token');
  return { id: user.id, username: user.username, user };
}
