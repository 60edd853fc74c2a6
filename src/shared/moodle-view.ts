import { parseAiken } from './aiken.ts';
import { parseGift } from './gift.ts';
import { isWeighted, optionWeight, type TypedQuestionInput } from './question-types.ts';
import { moodleAnswerOfLiteral } from './moodle-answers.ts';

/**
 * A question in Moodle's terms (decision 043): its Moodle type, the text a student reads, and
 * each answer with the fraction of the mark Moodle gives for it. The import tests and
 * `npm run measure:moodle-import` compare what our readers make of a file with what Moodle's
 * reader makes of it, written down in this shape, so "scores as Moodle scores" is checked
 * answer by answer rather than by reading code.
 */
export type MoodleView =
  | { type: 'multichoice'; single: boolean; text: string; answers: [string, number][] }
  | { type: 'truefalse'; text: string; correct: boolean }
  | { type: 'shortanswer'; text: string; answers: [string, number][] }
  | { type: 'numerical'; text: string; answers: [number, number, number][] }
  | { type: 'match'; text: string; pairs: [string, string][]; extra: string[] }
  | { type: 'essay' | 'description'; text: string }
  /** Ours only: Moodle's standard types have no all-or-nothing multiple answer. */
  | { type: 'all-or-nothing'; text: string };

/** How our scoring of a question reads in Moodle's terms. */
export function moodleViewOf(question: TypedQuestionInput): MoodleView {
  const text = question.question_text;
  switch (question.type) {
    case 'single':
      return {
        type: 'multichoice',
        single: true,
        text,
        answers: question.options.map((option) => [option.text, optionWeight(option) / 100]),
      };
    case 'multiple': {
      if (isWeighted(question)) {
        const answers = question.options.map((option): [string, number] => [option.text, optionWeight(option) / 100]);
        return { type: 'multichoice', single: false, text, answers };
      }
      if ((question.scoring ?? 'all-or-nothing') === 'all-or-nothing') return { type: 'all-or-nothing', text };
      const share = 1 / question.options.filter((option) => option.correct).length;
      return {
        type: 'multichoice',
        single: false,
        text,
        answers: question.options.map((option) => [option.text, option.correct ? share : -share]),
      };
    }
    case 'true-false':
      return { type: 'truefalse', text, correct: question.correct };
    case 'short-text': {
      // Moodle's answer texts are patterns (decision 049): a literal answer's `*` reads `\*` there.
      const moodleText = (answer: string) => (question.wildcards ? answer : moodleAnswerOfLiteral(answer));
      return {
        type: 'shortanswer',
        text,
        answers: [
          ...question.accepted.map((accepted): [string, number] => [moodleText(accepted), 1]),
          ...(question.partial ?? []).map((answer): [string, number] => [moodleText(answer.text), answer.weight / 100]),
        ],
      };
    }
    case 'numeric':
      return {
        type: 'numerical',
        text,
        answers: [
          [question.value, question.tolerance, 1],
          ...(question.partial ?? []).map((answer): [number, number, number] => [
            answer.value,
            answer.tolerance,
            answer.weight / 100,
          ]),
        ],
      };
    // Marked by hand in Moodle and here (decision 046): nothing to score automatically.
    case 'essay':
      return { type: 'essay', text };
    case 'matching':
      // Moodle's match question gives every prompt an equal share; its pairs and extras say it all.
      return {
        type: 'match',
        text,
        pairs: question.pairs.flatMap((pair): [string, string][] =>
          pair.prompt === '' ? [] : [[pair.prompt, pair.match]],
        ),
        extra: question.pairs.flatMap((pair) => (pair.prompt === '' ? [pair.match] : [])),
      };
    case 'description':
      return { type: 'description', text };
  }
}

const FRACTION_SLACK = 1e-4;
const tidyText = (text: string) => text.replace(/\s+/g, ' ').trim();
const sameValue = (a: unknown, b: unknown): boolean =>
  typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) <= FRACTION_SLACK
    : typeof a === 'string' && typeof b === 'string'
      ? tidyText(a) === tidyText(b)
      : Array.isArray(a) && Array.isArray(b)
        ? a.length === b.length && a.every((item, index) => sameValue(item, b[index]))
        : a === b;

/** Whether two views score alike: same type, text and answers (fractions within 0.0001, spacing aside). */
export function sameMoodleView(ours: MoodleView, moodle: MoodleView): boolean {
  const keys = new Set([...Object.keys(ours), ...Object.keys(moodle)]);
  return [...keys].every((key) =>
    sameValue((ours as Record<string, unknown>)[key], (moodle as Record<string, unknown>)[key]),
  );
}

/** Moodle's reading of some files: by file name, then by the line each question starts on. */
export type MoodleOracle = Record<string, Record<string, MoodleView>>;

/** What our readers make of some files, set against Moodle's reading of them. */
export type OracleComparison = {
  /** Questions Moodle takes from the files. */
  total: number;
  /** Of those, the ones that come in exactly as Moodle reads and scores them. */
  imported: number;
  /** `file:line` of every question that comes in otherwise than Moodle, or that Moodle does not take. */
  wrong: string[];
  /** `file:line` of every question Moodle takes that stays out without an error at its line. */
  unreported: string[];
  /** Why the questions that stayed out were refused, with how many each reason refused. */
  reasons: Map<string, number>;
};

/**
 * Reads each file with the GIFT reader, or the Aiken one when its name says aiken, and
 * compares question by question with the oracle (issue 30 point 4, decision 043).
 */
export function compareWithMoodle(files: { name: string; text: string }[], oracle: MoodleOracle): OracleComparison {
  const comparison: OracleComparison = { total: 0, imported: 0, wrong: [], unreported: [], reasons: new Map() };
  for (const { name, text } of files) {
    const expected = oracle[name];
    if (!expected) continue;
    const result = /aiken/i.test(name) ? parseAiken(text) : parseGift(text);
    const errorLines = new Set<string>();
    for (const problem of result.problems) {
      if (problem.severity !== 'error' || !(String(problem.line) in expected)) continue;
      errorLines.add(String(problem.line));
      // Said by code and parameters: a message from the schema is zod's, the same for many reasons.
      const reason = `${problem.code} ${JSON.stringify(problem.params)}`;
      comparison.reasons.set(reason, (comparison.reasons.get(reason) ?? 0) + 1);
    }
    const importedLines = new Set<string>();
    for (const { line, question } of result.questions) {
      const moodle = expected[String(line)];
      importedLines.add(String(line));
      if (moodle && sameMoodleView(moodleViewOf(question), moodle)) comparison.imported++;
      else comparison.wrong.push(`${name}:${line} ${moodle ? 'differs from Moodle' : 'is no question in Moodle'}`);
    }
    for (const line of Object.keys(expected)) {
      comparison.total++;
      if (!importedLines.has(line) && !errorLines.has(line)) comparison.unreported.push(`${name}:${line}`);
    }
  }
  return comparison;
}
