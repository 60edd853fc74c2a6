import { useEffect } from 'react';

/**
 * The study shell asks before the page is left or reloaded (SPEC §4), except
 * while some screen says there is nothing to protect (a finished quiz's result).
 * A count, so overlapping screens cannot switch it back on early.
 */
let suppressions = 0;

export const isLeaveConfirmationSuppressed = () => suppressions > 0;

/** While the calling component is mounted (and `isActive`), leaving asks no question. */
export function useSuppressLeaveConfirmation(isActive = true) {
  useEffect(() => {
    if (!isActive) return;
    suppressions += 1;
    return () => {
      suppressions -= 1;
    };
  }, [isActive]);
}
