import type { ServerErrorKey } from '#core/errors';

/**
 * A refusal the client should see: an HTTP status and a key the error catalogue (core/errors.ts)
 * lists, never one of the web app's own.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: ServerErrorKey,
  ) {
    super(`error/${key}`);
    this.name = 'AppError';
  }
}

export const badRequest = (key: ServerErrorKey) => new AppError(400, key);
export const unauthorized = (key: ServerErrorKey) => new AppError(401, key);
export const forbidden = (key: ServerErrorKey) => new AppError(403, key);
export const notFound = (key: ServerErrorKey) => new AppError(404, key);
export const conflict = (key: ServerErrorKey) => new AppError(409, key);
export const tooMany = (key: ServerErrorKey) => new AppError(429, key);
