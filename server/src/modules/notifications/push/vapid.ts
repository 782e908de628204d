import webpush from 'web-push';
import type { Executor } from '../../../db/schema.js';
import { settleSetting } from '../../../db/server-settings.js';
import { type VapidKeys, vapidKeyProblem } from '../../../lib/vapid-keys.js';

/**
 * The VAPID key pair this instance signs its pushes with. Push services tie a subscription to the
 * public key the browser was given, so every process of the instance must sign with the same pair,
 * and it must survive restarts: taken from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set, else
 * generated once and kept in the database (`server_settings`), where every process sharing the
 * database reads the same one. The first process to start inserts its pair; an insert that finds
 * one already there does nothing, and each process then reads back whichever pair won.
 * (Checking a pair is lib/vapid-keys.ts's, so the configuration can refuse a bad one.)
 */
export const VAPID_SETTING = 'vapid_keys';

function parseStored(value: string | undefined): VapidKeys | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as Partial<VapidKeys>;
    if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string') return null;
    return vapidKeyProblem(parsed.publicKey, parsed.privateKey) ? null : { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
  } catch {
    return null;
  }
}

/** The configured pair, else the stored one, generating and storing it the first time. */
export async function loadVapidKeys(db: Executor, configured: VapidKeys | undefined, now: number = Date.now()): Promise<VapidKeys> {
  if (configured) return configured;
  const stored = parseStored(await settleSetting(db, VAPID_SETTING, JSON.stringify(webpush.generateVAPIDKeys()), now));
  if (!stored) throw new Error(`the stored ${VAPID_SETTING} setting is not a VAPID key pair: delete the row to generate a new one, or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`);
  return stored;
}
