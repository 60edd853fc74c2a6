/**
 * An expected failure with the HTTP status and message a person should see.
 * Anything else that is thrown is a bug and becomes a logged 500.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: { field: string; message: string }[],
    /** Sent with the failure (e.g. Retry-After with a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: { field: string; message: string }[]) =>
  new AppError(400, message, errors);
export const unauthorized = (message = 'Please log in to continue') => new AppError(401, message);
export const forbidden = (message = 'You are not allowed to do that') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
/** 429 with the seconds to wait in Retry-After (RFC 9110), the message saying it in words. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, undefined, { 'retry-after': String(retryAfterSeconds) });
/** 409; naming the field lets a form mark it. */
export const conflict = (message: string, field?: string) =>
  new AppError(409, message, field ? [{ field, message }] : undefined);
