import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { isDescription } from '#shared/question-types';
import { formatAccuracy, type TeacherQuizDetail } from '#shared/quizzes';
import { formatPoints, responseText, semicolonList } from '../question-response.ts';
import { QUESTION_TYPE_MESSAGES } from './question-type-labels.ts';

/**
 * The analytics table as CSV (RFC 4180): one row per attempt with the answer and the points
 * earned of every question. Pure, so the download button only wraps it in a Blob. Every row
 * has the same columns: each question has an answer column and a points column, whose header
 * names the question's type and what it is worth (issue 20).
 *
 * The headers are for a person: in the active locale (issue 32). The cells are for spreadsheets
 * and scripts, the same in every locale: numbers with a dot, the attempt's time as ISO 8601.
 */

// A cell a spreadsheet would run as a formula (OWASP "CSV injection"); tab and CR start some too.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: formula starts neutralised with a quote, quoted when it holds a comma, quote or line break. */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows joined with CRLF, as RFC 4180 asks; the last row ends with CRLF too. */
export function toCsv(rows: (string | number)[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function attemptsCsv(quiz: TeacherQuizDetail): string {
  // A description has no answer and no points: no columns (decision 045).
  const questions = quiz.quiz.questions.filter((question) => !isDescription(question));
  const totalPoints = formatPoints(quiz.totalPoints);
  const header = [
    t`Name`,
    t`Roll number`,
    t`Score (out of ${totalPoints})`,
    t`Accuracy (%)`,
    t`Attempted at`,
    ...questions.flatMap((question, index) => {
      const number = index + 1;
      const type = i18n._(QUESTION_TYPE_MESSAGES[question.type]);
      const text = question.question_text;
      const points = formatPoints(question.points);
      return [
        t({
          comment: 'A CSV column: Q1 is question 1, then its type and text',
          message: `Q${number} (${type}): ${text}`,
        }),
        t({ comment: 'A CSV column: the points question 1 earned', message: `Q${number} points (of ${points})` }),
      ];
    }),
  ];
  const rows = quiz.attempts.map((attempt) => {
    const answers = new Map(attempt.quiz.questions.map((answer) => [answer._id, answer]));
    return [
      attempt.user.name,
      attempt.user.rollNumber,
      attempt.score,
      formatAccuracy(attempt.accuracy),
      attempt.attemptedAt,
      ...questions.flatMap((question) => {
        const answer = answers.get(question._id);
        // A program splits the cell: "; " in every locale, not the reader's "and".
        return [responseText(question, answer?.response, semicolonList), answer?.earnedPoints ?? 0];
      }),
    ];
  });
  return toCsv([header, ...rows]);
}

/**
 * A file name from the quiz title in any script: "Algebra: week 1" -> "algebra-week-1",
 * "اختبار الفصل الأول" -> "اختبار-الفصل-الأول". Letters, their marks and digits stay (Latin accents
 * dropped, as before); everything else, which includes every character unsafe in a file name
 * (/ \ : * ? " < > | and controls), becomes one hyphen.
 */
export function slugify(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  // By code point, so that a letter outside the BMP (a surrogate pair) is never cut in two.
  const slug = Array.from(words).slice(0, 60).join('').replace(/-+$/, '');
  return slug || 'quiz';
}

export const attemptsCsvFileName = (title: string) => `${slugify(title)}-attempts.csv`;
