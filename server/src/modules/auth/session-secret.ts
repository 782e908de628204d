import { JWT_SECRET_MIN_LENGTH, type Config, type LoadedConfig, newJwtSecret } from '../../config.js';
import type { Executor } from '../../db/schema.js';
import { settleSetting } from '../../db/server-settings.js';

export const JWT_SECRET_SETTING = 'jwt_secret';

/**
 * The secret session tokens are signed with, shared by every process on the database: without it,
 * each process would make its own, and a token one signed would be refused by the next. The first
 * process to start stores a new one; the others, and every restart, read that one back.
 */
export async function sharedJwtSecret(db: Executor): Promise<string> {
  const stored = await settleSetting(db, JWT_SECRET_SETTING, newJwtSecret());
  if (!stored || stored.length < JWT_SECRET_MIN_LENGTH) {
    throw new Error(`the stored ${JWT_SECRET_SETTING} setting is too short: delete the row to generate a new one, or set JWT_SECRET`);
  }
  return stored;
}

/** The config with its session secret: JWT_SECRET (or SQLite's file) when it has one, else the shared one. */
export async function withJwtSecret(config: LoadedConfig, db: Executor): Promise<Config> {
  // The same object, completed: whoever holds the config (tests, the bench) sees the secret too.
  return Object.assign(config, { jwtSecret: config.jwtSecret ?? (await sharedJwtSecret(db)) });
}
