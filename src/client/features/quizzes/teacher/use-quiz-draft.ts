import { useEffect, useRef, type ChangeEvent, type Dispatch, type SetStateAction } from 'react';
import type { EndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { questionTextId } from './question-editor.tsx';
import { newQuestion, type DraftQuestion, type QuizDraft } from './quiz-draft.ts';

/** Runs one focus move after the next render, once the element it needs exists. */
export function useFocusAfterRender() {
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    const move = pending.current;
    pending.current = null;
    move?.();
  });
  return (move: () => void) => {
    pending.current = move;
  };
}

type DetailField = 'title' | 'classId' | 'deadline' | 'maxTime' | 'reviewAnswers' | 'reviewScore';

/**
 * The quiz editor's changes to its draft, shared by the create and edit screens: each change
 * clears the problems it answers, and adding or removing a question moves the focus (to the new
 * question's text, or to `afterRemove`: the Add question button).
 */
export function useQuizDraftEditing(
  draft: QuizDraft,
  setDraft: Dispatch<SetStateAction<QuizDraft>>,
  { errors, clearErrors }: Pick<EndpointForm, 'errors' | 'clearErrors'>,
  afterRemove: () => HTMLElement | null,
) {
  const focusAfterRender = useFocusAfterRender();
  const setField = <K extends DetailField>(field: K, value: QuizDraft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    clearErrors((slot) => slot === field);
  };
  return {
    setField,
    /** A detail's text field, wired to the draft: its value, its changes, its problem. */
    detailField: (field: 'title' | 'deadline' | 'maxTime') => ({
      name: field,
      'data-field': field,
      value: draft[field],
      onChange: (event: ChangeEvent<HTMLInputElement>) => setField(field, event.target.value),
      error: errors[field],
    }),
    focusById: (id: string) => focusAfterRender(() => document.getElementById(id)?.focus()),
    updateQuestion(index: number, question: DraftQuestion) {
      setDraft((current) => ({
        ...current,
        questions: current.questions.map((existing, position) => (position === index ? question : existing)),
      }));
      clearErrors((slot) => slot.startsWith(`quiz.questions.${index}.`));
    },
    addQuestion() {
      const question = newQuestion();
      setDraft((current) => ({ ...current, questions: [...current.questions, question] }));
      clearErrors((slot) => slot === 'quiz.questions');
      focusAfterRender(() => document.getElementById(questionTextId(question))?.focus());
    },
    /** Questions (GIFT, Aiken) joining the end. */
    appendQuestions(questions: DraftQuestion[]) {
      setDraft((current) => ({ ...current, questions: [...current.questions, ...questions] }));
      clearErrors((slot) => slot === 'quiz.questions');
    },
    removeQuestion(index: number) {
      setDraft((current) => ({ ...current, questions: current.questions.filter((_, position) => position !== index) }));
      // Question numbers shift, so their old problems would point at the wrong question.
      clearErrors((slot) => slot.startsWith('quiz.questions.'));
      focusAfterRender(() => afterRemove()?.focus());
    },
  };
}
