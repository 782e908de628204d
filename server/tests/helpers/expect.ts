import { expect } from 'vitest';

/** Assertions on the `{message}` replies every module answers with. */

export function expectError(res: { statusCode: number; json(): unknown }, status: number, key: string): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message: `error/${key}` } });
}

export function expectInfo(res: { statusCode: number; json(): unknown }, key: string, status = 200): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message: `info/${key}` } });
}
