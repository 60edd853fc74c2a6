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
