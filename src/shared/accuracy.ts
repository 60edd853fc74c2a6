/**
 * SPEC §4 accuracy display: a whole number if integer, else two decimals. On its own so the
 * leaderboards, the students screen and every formatter take it without the quiz schemas.
 */
export function formatAccuracy(accuracy: string | number): string {
  const value = Number(accuracy);
  if (!Number.isFinite(value)) return '0';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
