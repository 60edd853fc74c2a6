import type { ImportResult } from './gift.ts';
import { importIssue, invalidQuestion, type ImportIssue, type ImportProblem } from './import-problems.ts';
import { QUESTION_LIMITS, typedQuestionInputSchema, type TypedQuestionInput } from './question-types.ts';

/**
 * Aiken (Moodle's plainest format, decision 036): a question on one line, its options `A. …` or
 * `A) …` one a line (the space after the letter may be left out, as Moodle allows), then
 * `ANSWER: X`. Each becomes a single-choice question of 1 point.
 */

// Moodle takes an option with or without a space after its letter: `A) text`, `A)text`.
const OPTION = /^([A-Z])[.)]\s*(.*)$/;
const ANSWER = /^ANSWER:\s*(.*)$/i;

type Pending = {
  line: number;
  text: string;
  options: { letter: string; text: string }[];
  /** The first thing wrong with it: one error per question, so "skip N" counts questions. */
  error?: ImportProblem;
};

export function parseAiken(text: string): ImportResult {
  const result: ImportResult = { questions: [], problems: [] };
  const problem = (line: number, issue: ImportIssue & { message: string }): ImportProblem => ({
    line,
    ...issue,
    severity: 'error',
  });
  let pending: Pending | undefined;

  const finish = (answerLine: number, answer: string) => {
    const question = pending!;
    pending = undefined;
    const letter = answer.trim().toUpperCase();
    if (question.error) return result.problems.push(question.error);
    if (question.options.length < QUESTION_LIMITS.optionsMin) {
      return result.problems.push(
        problem(
          question.line,
          importIssue('A question needs at least two options (A. …, B. …)', 'AIKEN_TOO_FEW_OPTIONS'),
        ),
      );
    }
    if (!question.options.some((option) => option.letter === letter)) {
      return result.problems.push(
        problem(
          answerLine,
          importIssue(`ANSWER: “${answer.trim()}” is not one of the options’ letters`, 'AIKEN_ANSWER_NOT_AN_OPTION', {
            answer: answer.trim(),
          }),
        ),
      );
    }
    const input: TypedQuestionInput = {
      type: 'single',
      question_text: question.text,
      points: QUESTION_LIMITS.pointsDefault,
      options: question.options.map((option) => ({ text: option.text, correct: option.letter === letter })),
    };
    const parsed = typedQuestionInputSchema.safeParse(input);
    if (!parsed.success) return result.problems.push(problem(question.line, invalidQuestion(parsed.error.issues[0]!)));
    result.questions.push({ line: question.line, question: input });
  };
  const unfinished = () => {
    if (pending)
      result.problems.push(
        pending.error ?? problem(pending.line, importIssue('The question has no ANSWER: line', 'AIKEN_NO_ANSWER_LINE')),
      );
    pending = undefined;
  };

  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    const answer = ANSWER.exec(trimmed);
    const option = OPTION.exec(trimmed);
    if (answer) {
      if (pending) finish(line, answer[1]!);
      else
        result.problems.push(
          problem(line, importIssue('ANSWER: comes before any question', 'AIKEN_ANSWER_BEFORE_QUESTION')),
        );
    } else if (option && pending) {
      const letter = option[1]!;
      const expected = String.fromCharCode('A'.charCodeAt(0) + pending.options.length);
      if (letter !== expected)
        pending.error ??= problem(
          line,
          importIssue(`Option ${letter} comes where ${expected} should`, 'AIKEN_OPTION_OUT_OF_ORDER', {
            letter,
            expected,
          }),
        );
      pending.options.push({ letter, text: option[2]!.trim() });
    } else if (pending && pending.options.length === 0) {
      // A question's text may run over several lines before its options.
      pending.text = `${pending.text} ${trimmed}`;
    } else {
      unfinished();
      pending = { line, text: trimmed, options: [] };
    }
  });
  unfinished();
  return result;
}
