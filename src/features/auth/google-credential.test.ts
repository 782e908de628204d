import { describe, expect, it } from 'vitest';
import { decodeGoogleCredential } from './google-credential';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: unknown, header: unknown = { alg: 'RS256', typ: 'JWT' }) => `${part(header)}.${part(payload)}.c2lnbmF0dXJl`;

describe('decodeGoogleCredential', () => {
  it('accepts a three-part JWT whose payload has iss, aud and sub', () => {
    const claims = decodeGoogleCredential(
      jwt({ iss: 'https://accounts.google.com', aud: 'client', sub: '123', email: 'ž@example.com' }),
    );
    expect(claims).toEqual({ iss: 'https://accounts.google.com', aud: 'client', sub: '123', email: 'ž@example.com' });
  });

  it.each([
    ['not a string', 42],
    ['two parts', `${part({ alg: 'RS256' })}.${part({ iss: 'x', aud: 'y', sub: 'z' })}`],
    ['four parts', `${jwt({ iss: 'x', aud: 'y', sub: 'z' })}.extra`],
    ['an empty signature', `${part({ alg: 'RS256' })}.${part({ iss: 'x', aud: 'y', sub: 'z' })}.`],
    ['non-base64url characters', `${part({ alg: 'RS256' })}.${part({ iss: 'x', aud: 'y', sub: 'z' })}.a+b/c`],
    ['a payload that is not JSON', `${part({ alg: 'RS256' })}.${Buffer.from('nope').toString('base64url')}.c2ln`],
    ['a missing sub', jwt({ iss: 'x', aud: 'y' })],
    ['a missing iss', jwt({ aud: 'y', sub: 'z' })],
    ['a numeric aud', jwt({ iss: 'x', aud: 5, sub: 'z' })],
    ['a header that is not an object', jwt({ iss: 'x', aud: 'y', sub: 'z' }, 'text')],
  ])('rejects %s', (_label, credential) => {
    expect(decodeGoogleCredential(credential)).toBeNull();
  });
});
