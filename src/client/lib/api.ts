import type { ApiEnvelope, FieldError, PageInfo } from '#shared/api';
import { readSession, reportSessionEnded } from './session.ts';

/** A failed API call: the server's message, status and field problems. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  keepalive?: boolean;
};

/**
 * The one way the client talks to the server: attaches the stored token,
 * unwraps the envelope, and turns every failure (HTTP, success:false, network,
 * non-JSON) into an ApiError whose message a person can read.
 */
export async function apiRequest<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ message: string; data: T; page?: PageInfo | undefined }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const session = readSession();
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0);
  }

  let envelope: ApiEnvelope<T> | undefined;
  try {
    envelope = (await response.json()) as ApiEnvelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope !== 'object' || !('success' in envelope)) {
    throw new ApiError(`The server answered unexpectedly (HTTP ${response.status}).`, response.status);
  }
  if (!response.ok || !envelope.success) {
    const failure = envelope as Extract<ApiEnvelope<T>, { success: false }>;
    const error = new ApiError(
      failure.message || `Request failed (HTTP ${response.status})`,
      response.status,
      failure.errors,
    );
    // The session itself was refused (signed out elsewhere, expired): whoever listens goes to the login.
    if (response.status === 401 && session) reportSessionEnded(session.token, error.message);
    throw error;
  }
  return { message: envelope.message, data: envelope.data, page: envelope.page };
}

export const apiPost = <T>(path: string, body: unknown = {}) => apiRequest<T>(path, { method: 'POST', body });
