import { useEffect, useState } from 'react';
import { apiRequest, ApiError } from '../../../lib/api.ts';

/** Choices are sent this long after the last click, so a change of mind costs one request. */
const SAVE_DEBOUNCE_MS = 400;
const RETRY_MS = 3000;

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline';

/** The saving logic, outside React: a queue of unsent choices, a debounce and retries. */
function createAnswerSaver(quizId: string, onStatus: (status: SaveStatus) => void) {
  let pending: Record<string, string | null> = {};
  let timer: number | undefined;
  let onClosed = () => {};

  async function flush(options: { keepalive?: boolean } = {}) {
    window.clearTimeout(timer);
    const answers = pending;
    if (Object.keys(answers).length === 0) return;
    pending = {};
    onStatus('saving');
    try {
      await apiRequest(`/api/quiz/${quizId}/answers`, { method: 'PUT', body: { answers }, ...options });
      onStatus(Object.keys(pending).length === 0 ? 'saved' : 'saving');
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return onClosed();
      // Keep the unsent choices (newer ones win) and try again shortly.
      pending = { ...answers, ...pending };
      onStatus('offline');
      timer = window.setTimeout(() => void flush(), RETRY_MS);
      if (!(error instanceof ApiError) || error.status !== 0) console.error('Saving answers failed', error);
    }
  }

  return {
    flush,
    setOnClosed(handler: () => void) {
      onClosed = handler;
    },
    queue(questionId: string, option: string | null) {
      pending = { ...pending, [questionId]: option };
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void flush(), SAVE_DEBOUNCE_MS);
    },
    /** Stops the pending save (the page is going away). */
    cancel() {
      window.clearTimeout(timer);
      pending = {};
    },
  };
}

/**
 * Saves a student's choices to the server as they are made (debounced) and
 * retries what could not be sent, so a reload or a crash loses at most the
 * last fraction of a second. onClosed runs when the server says the attempt
 * is over (time up, or submitted from another tab).
 */
export function useAnswerSaver(quizId: string, onClosed: () => void) {
  const [status, setStatus] = useState<SaveStatus>('idle');
  const [saver] = useState(() => createAnswerSaver(quizId, setStatus));
  useEffect(() => saver.setOnClosed(onClosed), [saver, onClosed]);

  useEffect(() => {
    // Leaving or reloading the page: send what is still waiting, even as the page goes away.
    const handlePageHide = () => void saver.flush({ keepalive: true });
    window.addEventListener('pagehide', handlePageHide);
    return () => {
      window.removeEventListener('pagehide', handlePageHide);
      saver.cancel();
    };
  }, [saver]);

  return { queue: saver.queue, flush: saver.flush, status };
}
