import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { processWideCompilers } from '../../src/lib/schema-compilers';
import { createTestApp } from '../helpers/test-app';

const route = { method: 'POST', url: '/thing', httpStatus: '200' };
const options = { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true } } as const;

describe('schema compilers kept for the process', () => {
  it('gives a second app the validator and the serializer compiled for the first', () => {
    const schema = Type.Object({ name: Type.String(), count: Type.Integer({ default: 1 }) });
    const validator = () => processWideCompilers.buildValidator!({}, options)({ ...route, httpPart: 'body', schema });
    const serializer = () => processWideCompilers.buildSerializer!({}, {})({ ...route, schema });
    expect(validator()).toBe(validator());
    expect(serializer()).toBe(serializer());
    // A schema of the same shape is another object: compiled for itself, never mistaken for this one.
    const other = Type.Object({ name: Type.String() });
    expect(processWideCompilers.buildSerializer!({}, {})({ ...route, schema: other })).not.toBe(serializer());
  });

  it('keeps each compiled function doing what its schema says', () => {
    const schema = Type.Object({ name: Type.String(), count: Type.Integer({ default: 1 }) }, { additionalProperties: false });
    const validate = processWideCompilers.buildValidator!({}, options)({ ...route, httpPart: 'body', schema }) as (data: unknown) => boolean;
    const body: Record<string, unknown> = { name: 'a', extra: true };
    expect(validate(body)).toBe(true);
    expect(body).toEqual({ name: 'a', count: 1 });
    expect(validate({ count: 2 })).toBe(false);
    const serialize = processWideCompilers.buildSerializer!({}, {})({ ...route, schema }) as (doc: unknown) => string;
    expect(JSON.parse(serialize({ name: 'b', count: 3, secret: 'x' }))).toEqual({ name: 'b', count: 3 });
  });

  it('lets apps built one after another in a process refuse bad input alike', async () => {
    for (let i = 0; i < 2; i += 1) {
      const t = await createTestApp();
      try {
        const reply = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 5 } });
        expect(reply.statusCode).toBe(400);
        expect(reply.json()).toMatchObject({ message: expect.stringMatching(/^error\//) });
      } finally {
        await t.close();
      }
    }
  });
});
