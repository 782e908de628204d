import { expect } from 'vitest';

/** Assertions on the `{message}` replies every module answers with. */

export function expectError(res: { statusCode: number; json(): unknown }, status: number, key: string): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message: `error/${key}` } });
}

export function expectInfo(res: { statusCode: number; json(): unknown }, key: string, status = 200): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message: `info/${key}` } });
}

/** A sign-up's answer: its message, and the one-use key the browser that signed up keeps. */
export function expectSignedUp(res: { statusCode: number; json(): unknown }, key: 'signup_email' | 'signup_application'): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 201, body: { message: `info/${key}`, signupLogin: expect.any(String) } });
}

/** The picture fields of a user in a profile or a list: its id, its avatar name and URL. */
export const userPicture = (id: string) => ({ _id: id, pfp: id, pfpUrl: `/media/pfp/${id}.jpeg` });

/** The picture fields of a group in a list: its id, its avatar name and URL. */
export const groupPicture = (id: string) => ({ _id: id, gp: id, gpUrl: `/media/gp/${id}.jpeg` });

/** The JSON of a reply of the expected status; any other status throws with the body, so a failed step says why. */
export function okJson<T = Record<string, unknown>>(res: { statusCode: number; json(): unknown; body: string }, status = 200): T {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json() as T;
}

/** What the federation tests read of a post in the API's answers. */
export interface PostView {
  _id: string;
  text: string;
  likes: number;
  author: { username: string };
  remote?: { host: string; url?: string | null } | null;
  editedAt?: number | null;
}
