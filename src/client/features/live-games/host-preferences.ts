import { useCallback, useState } from 'react';
import { z } from 'zod/mini';

/**
 * What the host chooses about the projector's display alone, kept for this tab (sessionStorage)
 * so a reload or the next game shows the same: nothing of it goes to the server. Names hidden is
 * the game's own setting (the server leaves them out of what it sends); typed answers hidden is
 * the host page's, the host being a teacher who may read them.
 */

const TYPED_ANSWERS_HIDDEN_KEY = 'studyhall:live-host:typed-answers-hidden';

/** What the tab stored: anything else (damaged, another version) is the default. */
const storedFlagSchema = z.enum(['true', 'false']);

export function readTypedAnswersHidden(): boolean {
  try {
    const parsed = storedFlagSchema.safeParse(window.sessionStorage.getItem(TYPED_ANSWERS_HIDDEN_KEY));
    return parsed.success && parsed.data === 'true';
  } catch {
    return false;
  }
}

function keepTypedAnswersHidden(hidden: boolean) {
  try {
    window.sessionStorage.setItem(TYPED_ANSWERS_HIDDEN_KEY, String(hidden));
  } catch {
    // Private mode without storage: the choice lasts as long as the page.
  }
}

/** Whether the projector shows typed answers' text, or only how many were right and wrong. */
export function useTypedAnswersHidden(): [boolean, (hidden: boolean) => void] {
  const [isHidden, setIsHidden] = useState(readTypedAnswersHidden);
  const change = useCallback((hidden: boolean) => {
    keepTypedAnswersHidden(hidden);
    setIsHidden(hidden);
  }, []);
  return [isHidden, change];
}
