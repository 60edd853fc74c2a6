import type { ApiSuccess } from '#shared/api';

/** The success envelope of SPEC §7. */
export function ok<T>(message: string, data: T): ApiSuccess<T> {
  return { success: true, message, data };
}
