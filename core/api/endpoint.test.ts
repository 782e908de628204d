import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { endpoint, plainEntry } from './endpoint';

describe('a call with no input and no refusal of its own', () => {
  const Reply = Type.Object({ count: Type.Number() });

  it('is the entry written out in full', () => {
    const written = endpoint({ method: 'PATCH', path: '/thing/seen', summary: 'Mark it seen', replies: { 200: Reply }, errors: [] });
    const built = plainEntry('PATCH', '/thing/seen', 'Mark it seen', Reply);
    expect(built).toStrictEqual(written);
    // The key order is the one the OpenAPI document and the route table are written in.
    expect(Object.keys(built)).toEqual(['method', 'path', 'summary', 'replies', 'errors']);
  });

  it('answers its reply schema itself, not a copy, and declares no input', () => {
    const built = plainEntry('GET', '/thing', 'The thing', Reply);
    expect(built.replies[200]).toBe(Reply);
    expect(built).not.toHaveProperty('params');
    expect(built).not.toHaveProperty('query');
    expect(built).not.toHaveProperty('body');
    expect(built.errors).toEqual([]);
  });
});
