import { formatAccuracy, type TeacherQuizDetail } from '#shared/quizzes';

/**
 * The analytics table as CSV (RFC 4180): one row per attempt with the chosen
 * option of every question. Pure, so the download button only wraps it in a Blob.
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
  const questions = quiz.quiz.questions;
  const header = [
    'Name',
    'Roll number',
    'Score',
    'Accuracy (%)',
    'Attempted at',
    ...questions.map((question, index) => `Q${index + 1}: ${question.question_text}`),
  ];
  const rows = quiz.attempts.map((attempt) => {
    const selected = new Map(attempt.quiz.questions.map((answer) => [answer._id, answer.selectedOption]));
    return [
      attempt.user.name,
      attempt.user.rollNumber,
      attempt.score,
      formatAccuracy(attempt.accuracy),
      attempt.attemptedAt,
      ...questions.map((question) => selected.get(question._id) ?? ''),
    ];
  });
  return toCsv([header, ...rows]);
}

/** A file name from the quiz title: "Algebra: week 1" -> "algebra-week-1". */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'quiz';
}

export const attemptsCsvFileName = (title: string) => `${slugify(title)}-attempts.csv`;
