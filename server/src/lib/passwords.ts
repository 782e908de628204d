import argon2 from 'argon2';

/**
 * Password hashes: argon2id with OWASP's recommended parameters (19 MiB, 2 passes, 1 lane; a few
 * tens of milliseconds per hash, so logins stay cheap under load), stored in the PHC string form:
 * the parameters travel with each hash and can be raised later without breaking existing ones.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification without an account, so a login for an unknown name takes
 * as long as one with a wrong password and response times do not reveal which names exist.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(await dummyHash, password);
}
