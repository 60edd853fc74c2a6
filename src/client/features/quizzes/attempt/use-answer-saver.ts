import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest, ApiError } from '../../../lib/api.ts';

/** Choices are sent this long after the last click, so a change of mind costs one request. */
const SAVE_DEBOUNCE_MS = 400;
const RETRY_MS = 3000;

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline';

/**
 * Saves a student's choices to the server as they are made (debounced) and
 * retries what could not be sent, so a reload or a crash loses at most the
 * last fraction of a second. onClosed runs when the server says the attempt
 * is over (time up, or submitted from another tab).
 */
export function useAnswerSaver(quizId: string, onClosed: () => void) {
  const pending = useRef<Record<string, string | null>>({});
  const timer = useRef<number | undefined>(undefined);
  const [status, setStatus] = useState<SaveStatus>('idle');
  const onClosedRef = useRef(onClosed);
  onClosedRef.current = onClosed;

  const flush = useCallback(
    async (options: { keepalive?: boolean } = {}) => {
      window.clearTimeout(timer.current);
      const answers = pending.current;
      if (Object.keys(answers).length === 0) return;
      pending.current = {};
      setStatus('saving');
      try {
        await apiRequest(`/api/quiz/${quizId}/answers`, { method: 'PUT', body: { answers }, ...options });
        setStatus(Object.keys(pending.current).length === 0 ? 'saved' : 'saving');
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          onClosedRef.current();
          return;
        }
        // Keep the unsent choices (newer ones win) and try again shortly.
        pending.current = { ...answers, ...pending.current };
        setStatus('offline');
        timer.current = window.setTimeout(() => void flush(), RETRY_MS);
        if (!(error instanceof ApiError) || error.status !== 0) console.error('Saving answers failed', error);
      }
    },
    [quizId],
  );

  const queue = useCallback(
    (questionId: string, option: string | null) => {
      pending.current = { ...pending.current, [questionId]: option };
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void flush(), SAVE_DEBOUNCE_MS);
    },
    [flush],
  );

  /** Forget unsent choices: the submission carries every answer anyway. */
  const cancel = useCallback(() => {
    window.clearTimeout(timer.current);
    pending.current = {};
  }, []);

  useEffect(() => {
    // Leaving or reloading the page: send what is still waiting, even as the page goes away.
    const handlePageHide = () => void flush({ keepalive: true });
    window.addEventListener('pagehide', handlePageHide);
    return () => {
      window.removeEventListener('pagehide', handlePageHide);
      window.clearTimeout(timer.current);
    };
  }, [flush]);

  return { queue, flush, cancel, status };
}
