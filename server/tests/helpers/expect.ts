import { expect } from 'vitest';

/** Assertions on the `{message}` replies every module answers with. */

export function expectError(res: { statusCode: number; json(): unknown }, status: number, key: string): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message: `error/${key}` } });
}

export function expectInfo(res: { statusCode: number; json(): unknown }, key: string, status = 200): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message: `info/${key}` } });
}

/** The picture fields of a user in a profile or a list: its id, its avatar name and URL. */
export const userPicture = (id: string) => ({ _id: id, pfp: id, pfpUrl: `/media/pfp/${id}.jpeg` });

/** The picture fields of a group in a list: its id, its avatar name and URL. */
export const groupPicture = (id: string) => ({ _id: id, gp: id, gpUrl: `/media/gp/${id}.jpeg` });
