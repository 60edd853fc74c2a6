import { describe, expect, it } from 'vitest';
import { emptyDraft, newQuestion, type QuizDraft } from './quiz-draft.ts';
import { clearStoredDraft, hasUnsavedWork, readStoredDraft, storeDraft } from './quiz-draft-storage.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const filledDraft = (): QuizDraft => {
  const question = newQuestion();
  const [option] = question.options;
  return {
    ...emptyDraft(),
    title: 'Fractions',
    classId: '7b000000-0000-4000-8000-000000000000',
    questions: [{ ...question, question_text: 'Half of 1?', options: [{ ...option!, text: '0.5', correct: true }] }],
  };
};

describe('quiz editor draft storage', () => {
  it('keeps the review options, and reads a missing or unknown one as the default', () => {
    const storage = memoryStorage();
    storeDraft(storage, 't', { ...filledDraft(), reviewAnswers: 'never', reviewScore: 'after-deadline' });
    expect(readStoredDraft(storage, 't')).toMatchObject({ reviewAnswers: 'never', reviewScore: 'after-deadline' });
    // A draft from before the options, or edited by hand.
    storage.setItem('studyhall:quiz-draft:t', JSON.stringify({ title: 'Old', reviewScore: 'tomorrow' }));
    expect(readStoredDraft(storage, 't')).toMatchObject({
      reviewAnswers: 'after-deadline',
      reviewScore: 'after-submit',
    });
    // Changing only an option is work worth keeping.
    expect(hasUnsavedWork({ ...emptyDraft(), reviewAnswers: 'after-submit' })).toBe(true);
  });

  it('keeps a draft per teacher and reads it back with fresh keys, the answer still marked', () => {
    const storage = memoryStorage();
    const draft = filledDraft();
    storeDraft(storage, 'teacher-1', draft);
    expect(readStoredDraft(storage, 'teacher-2')).toBeNull();
    const read = readStoredDraft(storage, 'teacher-1')!;
    expect(read.title).toBe('Fractions');
    expect(read.questions[0]!.question_text).toBe('Half of 1?');
    expect(read.questions[0]!.key).not.toBe(draft.questions[0]!.key);
    expect(read.questions[0]!.options[0]).toMatchObject({ text: '0.5', correct: true });
  });

  it('reads a draft saved before question types as single choice questions, the answer marked', () => {
    const storage = memoryStorage();
    const legacy = {
      title: 'Old',
      questions: [
        {
          key: 'k1',
          question_text: 'Capital of France?',
          options: [
            { key: 'k2', text: 'Rome' },
            { key: 'k3', text: 'Paris' },
          ],
          answerKey: 'k3',
        },
      ],
    };
    storage.setItem('studyhall:quiz-draft:t', JSON.stringify(legacy));
    const [question] = readStoredDraft(storage, 't')!.questions;
    expect(question).toMatchObject({ type: 'single', points: '1', question_text: 'Capital of France?' });
    expect(question!.options.map(({ text, correct }) => ({ text, correct }))).toEqual([
      { text: 'Rome', correct: false },
      { text: 'Paris', correct: true },
    ]);
  });

  it('keeps every type’s fields through a reload', () => {
    const storage = memoryStorage();
    const multiple = { ...newQuestion('multiple'), points: '1,5', scoring: 'partial' as const };
    const trueFalse = { ...newQuestion('true-false'), correct: false };
    const shortText = { ...newQuestion('short-text'), accepted: [{ key: 'a', text: 'Paris' }] };
    const numeric = { ...newQuestion('numeric'), value: '3.14', tolerance: '0.01' };
    storeDraft(storage, 't', { ...emptyDraft(), questions: [multiple, trueFalse, shortText, numeric] });
    const read = readStoredDraft(storage, 't')!.questions;
    expect(read[0]).toMatchObject({ type: 'multiple', points: '1,5', scoring: 'partial' });
    expect(read[1]).toMatchObject({ type: 'true-false', correct: false });
    expect(read[2]!.accepted.map((item) => item.text)).toEqual(['Paris']);
    expect(read[3]).toMatchObject({ type: 'numeric', value: '3.14', tolerance: '0.01' });
  });

  it('forgets an empty draft and a cleared one; survives junk and a full storage', () => {
    const storage = memoryStorage();
    storeDraft(storage, 't', filledDraft());
    storeDraft(storage, 't', emptyDraft());
    expect(storage.items.size).toBe(0);
    storeDraft(storage, 't', filledDraft());
    clearStoredDraft(storage, 't');
    expect(readStoredDraft(storage, 't')).toBeNull();
    storage.setItem('studyhall:quiz-draft:t', '{"questions":[null,{"options":"x"}],"title":3}');
    expect(readStoredDraft(storage, 't')).toMatchObject({
      title: '',
      questions: [{ type: 'single', options: [{ text: '' }, { text: '' }] }],
    });
    storage.setItem('studyhall:quiz-draft:t', 'not json');
    expect(readStoredDraft(storage, 't')).toBeNull();
    const full = {
      ...memoryStorage(),
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => storeDraft(full, 't', filledDraft())).not.toThrow();
  });

  it('has unsaved work once anything differs from a new quiz', () => {
    expect(hasUnsavedWork(emptyDraft())).toBe(false);
    expect(hasUnsavedWork({ ...emptyDraft(), maxTime: '5' })).toBe(true);
    expect(hasUnsavedWork({ ...emptyDraft(), questions: [newQuestion()] })).toBe(true);
  });
});
