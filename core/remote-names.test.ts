import { describe, expect, it } from 'vitest';
import { remoteNameOf, webUrlOf } from './remote-names';

describe('remoteNameOf', () => {
  it('splits a remote account name at its first @ into the name and the host', () => {
    expect(remoteNameOf('bob@other.example')).toEqual({ name: 'bob', host: 'other.example' });
    expect(remoteNameOf('bob@127.0.0.1:4001')).toEqual({ name: 'bob', host: '127.0.0.1:4001' });
    expect(remoteNameOf('a@b@c')).toEqual({ name: 'a', host: 'b@c' });
  });

  it('is null for a local name, and for an @ with nothing before or after it', () => {
    expect(remoteNameOf('alice')).toBeNull();
    expect(remoteNameOf('@other.example')).toBeNull();
    expect(remoteNameOf('bob@')).toBeNull();
    expect(remoteNameOf('')).toBeNull();
  });

  it('keeps a one-letter name and a one-letter host', () => {
    expect(remoteNameOf('b@h')).toEqual({ name: 'b', host: 'h' });
  });
});

describe('webUrlOf', () => {
  it('offers http and https addresses in any case as they are', () => {
    expect(webUrlOf('https://other.example/@bob/1')).toBe('https://other.example/@bob/1');
    expect(webUrlOf('http://other.example/p')).toBe('http://other.example/p');
    expect(webUrlOf('HTTPS://OTHER.example/')).toBe('HTTPS://OTHER.example/');
  });

  it('offers nothing for another scheme, a missing address, or one where the scheme is not at the start', () => {
    expect(webUrlOf('javascript:alert(1)')).toBeNull();
    expect(webUrlOf('ftp://other.example/')).toBeNull();
    expect(webUrlOf('xhttps://other.example/')).toBeNull();
    expect(webUrlOf('https:/other.example')).toBeNull();
    expect(webUrlOf(null)).toBeNull();
    expect(webUrlOf(undefined)).toBeNull();
    expect(webUrlOf('')).toBeNull();
  });
});
