import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A software authenticator for the passkey tests: P-256 keys made with node:crypto, and the
 * client data, authenticator data and 'none' attestation a browser would hand back, built by
 * hand, so the server's checks run on real signatures.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** The few CBOR shapes WebAuthn needs: small integers, text, bytes, arrays and maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter);
  return out;
}

/** The COSE form of a P-256 public key (EC2, ES256). */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );
}

export interface StoredKey {
  credentialId: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface CreationOptionsLike {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface RequestOptionsLike {
  challenge: string;
  rpId?: string;
}

export interface RegistrationJson {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment: string;
  clientExtensionResults: Record<string, unknown>;
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
}

export interface AuthenticationJson {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment: string;
  clientExtensionResults: Record<string, unknown>;
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
}

export class SoftAuthenticator {
  readonly keys: StoredKey[] = [];

  /** `origin` is the page the browser would report; the relying party id comes from the options. */
  constructor(readonly origin: string) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }), 'utf8');
  }

  /** Makes a new key for the options' account and answers as navigator.credentials.create would. */
  create(options: CreationOptionsLike): RegistrationJson {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(16);
    const key: StoredKey = { credentialId, privateKey, publicKey, userHandle: options.user.id, counter: 0 };
    this.keys.push(key);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(options.rp.id ?? new URL(this.origin).hostname),
      Buffer.from([UP | UV | AT]),
      counterBytes(key.counter),
      Buffer.alloc(16), // no AAGUID, as a 'none' attestation may say
      idLength,
      credentialId,
      coseKey(publicKey),
    ]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)), attestationObject: b64(attestationObject), transports: ['internal'] },
    };
  }

  /**
   * Signs the options' challenge with a stored key (the first unless told) as
   * navigator.credentials.get would. `signWith` signs with another private key (a forged answer);
   * `counter` overrides the next counter (a copied key replaying an old one).
   */
  get(options: RequestOptionsLike, choice: { key?: StoredKey; signWith?: KeyObject; counter?: number } = {}): AuthenticationJson {
    const key = choice.key ?? this.keys[0];
    if (!key) throw new Error('the authenticator holds no key');
    key.counter = choice.counter ?? key.counter + 1;
    const authData = Buffer.concat([sha256(options.rpId ?? new URL(this.origin).hostname), Buffer.from([UP | UV]), counterBytes(key.counter)]);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), choice.signWith ?? key.privateKey);
    return {
      id: b64(key.credentialId),
      rawId: b64(key.credentialId),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64(clientData), authenticatorData: b64(authData), signature: b64(signature), userHandle: key.userHandle },
    };
  }
}

/** A private key no passkey was registered with. */
export const strangerKey = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
