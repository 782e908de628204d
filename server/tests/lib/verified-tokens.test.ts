import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from '../../src/lib/verified-tokens';

describe('verified tokens', () => {
  const claims = (sub: string, exp: number | undefined) => ({ sub, ver: 0, exp });

  it('answers a kept token until the second it expires, then forgets it', () => {
    let now = 1_000_000;
    const kept = new VerifiedTokens(10, () => now);
    kept.set('a', claims('alice', 1_010));
    expect(kept.get('a')?.sub).toBe('alice');
    now = 1_009_999;
    expect(kept.get('a')?.sub).toBe('alice');
    // Expired once exp is not after the current second, as the verifier has it.
    now = 1_010_000;
    expect(kept.get('a')).toBeUndefined();
    now = 1_000_000;
    expect(kept.get('a')).toBeUndefined();
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const kept = new VerifiedTokens(2, () => 0);
    kept.set('a', claims('alice', undefined));
    kept.set('b', claims('bob', undefined));
    expect(kept.get('a')?.sub).toBe('alice');
    kept.set('c', claims('carol', undefined));
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('a')?.sub).toBe('alice');
    expect(kept.get('c')?.sub).toBe('carol');
  });
});
