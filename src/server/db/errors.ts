/**
 * The name of the unique constraint a failed insert violated, or undefined for
 * any other error. Drizzle wraps driver errors, so the cause chain is walked.
 */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  for (
    let current: unknown = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const candidate = current as { code?: unknown; constraint?: unknown };
    if (candidate.code === '23505') return typeof candidate.constraint === 'string' ? candidate.constraint : '';
  }
  return undefined;
}

/**
 * A write that names an account which no longer exists: a foreign-key violation on a
 * reference to teachers or students (the account was removed while the request ran, after
 * its token was checked). Both drivers report the missing table in the error's detail.
 */
export function referencesMissingAccount(error: unknown): boolean {
  for (
    let current: unknown = error;
    current && typeof current === 'object';
    current = (current as { cause?: unknown }).cause
  ) {
    const candidate = current as { code?: unknown; detail?: unknown };
    if (candidate.code === '23503')
      return (
        typeof candidate.detail === 'string' && /is not present in table "(teachers|students)"/.test(candidate.detail)
      );
  }
  return false;
}
