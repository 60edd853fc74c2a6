import type { NewQuizPayload } from '#shared/quizzes';

/**
 * The quiz preview object of SPEC §3 client state: the editor stores the form
 * here and the preview tab (same origin, new tab) reads it back.
 */
const PREVIEW_KEY = 'quizPreview';

/** What the preview needs: the form as the editor would submit it, plus the teacher's subject. */
export type QuizPreview = NewQuizPayload & { subject: string };

export function storeQuizPreview(preview: QuizPreview): void {
  localStorage.setItem(PREVIEW_KEY, JSON.stringify(preview));
}

export function readQuizPreview(): QuizPreview | null {
  try {
    const stored = localStorage.getItem(PREVIEW_KEY);
    const parsed: unknown = stored ? JSON.parse(stored) : null;
    return parsed && typeof parsed === 'object' ? (parsed as QuizPreview) : null;
  } catch {
    return null;
  }
}
