const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export interface GoogleClaims {
  iss: string;
  aud: string;
  sub: string;
  email?: string;
}

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Checks that a Google credential is a well-formed JWT before it is sent: three base64url
 * parts, a JSON header and a JSON payload carrying iss, aud and sub. The signature is the server's
 * business; this only keeps garbage off the wire.
 */
export function decodeGoogleCredential(credential: unknown): GoogleClaims | null {
  if (typeof credential !== 'string') return null;
  const parts = credential.split('.');
  if (parts.length !== 3 || parts.some((part) => !BASE64URL.test(part))) return null;
  try {
    const header: unknown = JSON.parse(decodeBase64Url(parts[0]!));
    const payload: unknown = JSON.parse(decodeBase64Url(parts[1]!));
    if (!header || typeof header !== 'object' || !payload || typeof payload !== 'object') return null;
    const claims = payload as Record<string, unknown>;
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (typeof claims.iss !== 'string' || typeof aud !== 'string' || typeof claims.sub !== 'string') return null;
    if (!claims.iss || !aud || !claims.sub) return null;
    return { iss: claims.iss, aud, sub: claims.sub, ...(typeof claims.email === 'string' ? { email: claims.email } : {}) };
  } catch {
    return null;
  }
}
