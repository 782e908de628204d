import type { ErrorKey } from '#core/errors';

/** A refusal the client should see: an HTTP status and a key the error catalogue (core/errors.ts) lists. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: ErrorKey,
  ) {
    super(`error/${key}`);
    this.name = 'AppError';
  }
}

export const badRequest = (key: ErrorKey) => new AppError(400, key);
export const unauthorized = (key: ErrorKey) => new AppError(401, key);
export const forbidden = (key: ErrorKey) => new AppError(403, key);
export const notFound = (key: ErrorKey) => new AppError(404, key);
export const conflict = (key: ErrorKey) => new AppError(409, key);
export const tooMany = (key: ErrorKey) => new AppError(429, key);
