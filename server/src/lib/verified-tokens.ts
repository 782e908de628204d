/** What a session token says, once its signature has been checked. */
export interface TokenClaims {
  sub: string | undefined;
  ver: unknown;
  /** Expiry in seconds since the epoch, as the token carries it. */
  exp: number | undefined;
}

/** Sessions a process keeps the check of; a client sends the same token with every request. */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Tokens whose signature already checked out, with their claims. Checking an HS256 signature
 * through WebCrypto cost about a millisecond of CPU a request (a key import and a job on the
 * crypto thread pool), as much as a whole like; a token's signature cannot change, so it is
 * checked once and the token is looked up by its text after that. Expiry is checked on every use,
 * as the verifier does (expired once `exp` is not after the current second). What a token grants
 * (its version against the user's, suspension) is still read from the database each time.
 */
export class VerifiedTokens {
  private readonly kept = new Map<string, TokenClaims>();

  constructor(private readonly size = VERIFIED_TOKENS_KEPT, private readonly clock: () => number = Date.now) {}

  /** The token's claims when it was verified before and has not expired since. */
  get(token: string): TokenClaims | undefined {
    const claims = this.kept.get(token);
    if (!claims) return undefined;
    if (claims.exp !== undefined && claims.exp <= Math.floor(this.clock() / 1000)) {
      this.kept.delete(token);
      return undefined;
    }
    // Map keeps insertion order: moving a hit to the end makes the first key the least recently used.
    this.kept.delete(token);
    this.kept.set(token, claims);
    return claims;
  }

  set(token: string, claims: TokenClaims): void {
    this.kept.set(token, claims);
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value as string);
  }
}
