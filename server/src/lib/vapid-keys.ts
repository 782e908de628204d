import { createECDH } from 'node:crypto';

/** A VAPID key pair, as the configuration and the stored setting both hold it. */
export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (what the browser's applicationServerKey takes). */
  publicKey: string;
  /** The private scalar, base64url. */
  privateKey: string;
}

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
