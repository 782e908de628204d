import { createECDH } from 'node:crypto';
import webpush from 'web-push';
import type { Executor } from '../../db/schema.js';
import { settleSetting } from '../../db/server-settings.js';

/**
 * The VAPID key pair this instance signs its pushes with. Push services tie a subscription to the
 * public key the browser was given, so every process of the instance must sign with the same pair,
 * and it must survive restarts: taken from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set, else
 * generated once and kept in the database (`server_settings`), where every process sharing the
 * database reads the same one. The first process to start inserts its pair; an insert that finds
 * one already there does nothing, and each process then reads back whichever pair won.
 */
export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (what the browser's applicationServerKey takes). */
  publicKey: string;
  /** The private scalar, base64url. */
  privateKey: string;
}

export const VAPID_SETTING = 'vapid_keys';

const fromBase64Url = (value: string): Buffer | null => (/^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url') : null);

/** Why the pair is not a usable VAPID pair (a P-256 public key and its own private key), or null. */
export function vapidKeyProblem(publicKey: string, privateKey: string): string | null {
  const pub = fromBase64Url(publicKey);
  if (!pub || pub.length !== 65 || pub[0] !== 0x04) return 'VAPID_PUBLIC_KEY must be a base64url P-256 public key (65 bytes, uncompressed)';
  const priv = fromBase64Url(privateKey);
  if (!priv || priv.length !== 32) return 'VAPID_PRIVATE_KEY must be a base64url P-256 private key (32 bytes)';
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(priv);
    if (!ecdh.getPublicKey().equals(pub)) return 'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY';
  } catch {
    return 'VAPID_PRIVATE_KEY must be a base64url P-256 private key (32 bytes)';
  }
  return null;
}

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
