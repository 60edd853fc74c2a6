import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { renderTranslated } from '../../../testing/render-translated.tsx';
import { QuestionStatsSection } from './question-stats-section.tsx';

const attempt = (n: number, response: string | null, earnedPoints: number, seconds?: number) => ({
  _id: `a${n}`,
  score: earnedPoints,
  accuracy: String(earnedPoints * 50),
  attemptedAt: '2026-11-26T10:00:00.000Z',
  timeTaken: 60,
  endedBy: 'submitted' as const,
  user: { _id: `s${n}`, name: `Student ${n}`, rollNumber: String(n) },
  quiz: { questions: [{ _id: 'q1', response, earnedPoints, ...(seconds === undefined ? {} : { seconds }) }] },
});

const quiz: TeacherQuizDetail = {
  _id: 'quiz',
  title: 'Capitals',
  subject: 'Geography',
  class: '10A',
  classId: 'class',
  date: '2026-11-20T10:00:00.000Z',
  deadline: '2026-11-27T10:00:00.000Z',
  maxTime: 10,
  createdBy: { _id: 't', name: 'Teacher' },
  questionCount: 1,
  totalPoints: 2,
  archivedAt: null,
  attemptsStarted: 1,
  version: 1,
  regrades: [],
  reviewAnswers: 'after-deadline',
  reviewScore: 'after-submit',
  quiz: {
    background: '/images/quiz-templates/quiz1-template.png',
    questions: [
      {
        _id: 'q1',
        type: 'single',
        question_text: 'Capital of France?',
        points: 2,
        options: [
          { _id: 'o1', text: 'Paris', correct: true },
          { _id: 'o2', text: 'Lyon', correct: false },
        ],
      },
    ],
  },
  attempts: [attempt(1, 'o1', 2, 12), attempt(2, 'o2', 0, 18), attempt(3, 'o1', 2), attempt(4, null, 0)],
};

describe('the per-question analytics', () => {
  it('gives each figure and each bar’s value as text, the right answer named', () => {
    renderTranslated(<QuestionStatsSection quiz={quiz} />);
    const section = screen.getByRole('region', { name: 'Per question' });
    const item = within(section).getByRole('listitem');
    expect(within(item).getByRole('heading', { name: 'Q1. Capital of France?' })).toBeInTheDocument();
    expect(item).toHaveTextContent('Single choice, 2 points');
    expect(item).toHaveTextContent('Full points:50%');
    expect(item).toHaveTextContent('Answered:75%');
    expect(item).toHaveTextContent('Average time to answer:15 s');
    const table = within(item).getByRole('table', { name: 'Answers to question 1' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['Paris(correct)2 (50%)', 'Lyon1 (25%)']);
  });

  it('reads in Arabic: its words, plurals and digits', async () => {
    // The catalog as the app loads it (compiled by the Vite plugin); renderTranslated types its messages as strings.
    const { messages } = (await import('../../../locales/ar/messages.po')) as { messages: Record<string, string> };
    renderTranslated(<QuestionStatsSection quiz={quiz} />, { locale: 'ar', messages });
    // The locale's own digits, whichever system this engine's Arabic uses.
    const one = new Intl.NumberFormat('ar').format(1);
    const section = screen.getByRole('region', { name: 'لكل سؤال' });
    const item = within(section).getByRole('listitem');
    expect(within(item).getByRole('heading', { name: `س${one}. Capital of France?` })).toBeInTheDocument();
    expect(item).toHaveTextContent('اختيار واحد، نقطتان');
    expect(within(item).getByRole('table', { name: `إجابات السؤال ${one}` })).toBeInTheDocument();
  });

  describe('true-or-false and matching rows (issue 32: data from the stats, words from the catalog)', () => {
    const attemptOf = (n: number, response: unknown, earnedPoints: number) => ({
      ...attempt(n, null, earnedPoints),
      quiz: { questions: [{ _id: 'q1', response, earnedPoints }] },
    });
    const trueFalse: TeacherQuizDetail = {
      ...quiz,
      quiz: {
        ...quiz.quiz,
        questions: [{ _id: 'q1', type: 'true-false', question_text: 'The sun is a star.', points: 1, correct: true }],
      },
      attempts: [attemptOf(1, true, 1), attemptOf(2, false, 0)] as TeacherQuizDetail['attempts'],
    };
    const matching: TeacherQuizDetail = {
      ...quiz,
      quiz: {
        ...quiz.quiz,
        questions: [
          {
            _id: 'q1',
            type: 'matching',
            question_text: 'Match them.',
            points: 1,
            prompts: [{ _id: 'p1', text: 'Heart', match: 'c1' }],
            choices: [{ _id: 'c1', text: 'Pumps blood' }],
          },
        ],
      },
      attempts: [attemptOf(1, { p1: 'c1' }, 1)] as TeacherQuizDetail['attempts'],
    };
    const rows = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getByRole('rowheader').textContent);
    const catalog = async (locale: 'es' | 'ar') =>
      ((await import(`../../../locales/${locale}/messages.po`)) as { messages: Record<string, string> }).messages;

    it('words True and False in the reader’s language', async () => {
      renderTranslated(<QuestionStatsSection quiz={trueFalse} />, { locale: 'es', messages: await catalog('es') });
      expect(rows()).toEqual(['Verdadero(correcta)', 'Falso']);
    });

    it('points a matched pair’s arrow the reading direction: → in English, ← in Arabic', async () => {
      const { unmount } = renderTranslated(<QuestionStatsSection quiz={matching} />);
      expect(rows()).toEqual(['Heart → Pumps blood(correct)']);
      unmount();
      renderTranslated(<QuestionStatsSection quiz={matching} />, { locale: 'ar', messages: await catalog('ar') });
      const [pair] = rows();
      expect(pair).toContain('←');
      expect(pair).not.toContain('→');
      // Each text isolated (U+2068…U+2069), so a left-to-right prompt keeps its place in the line.
      expect(pair).toMatch(/^\u2068Heart\u2069 ← \u2068Pumps blood\u2069/);
    });

    it('keeps "(correct)" whole: words wrap between them, never letter by letter', () => {
      renderTranslated(<QuestionStatsSection quiz={trueFalse} />);
      const header = screen.getAllByRole('rowheader')[0]!;
      expect(header.className).not.toMatch(/wrap-anywhere|break-all/);
      expect(within(header).getByText('(correct)')).toHaveClass('whitespace-nowrap');
    });

    it('starts each answer at the line’s start, not centred as a row header would be', () => {
      renderTranslated(<QuestionStatsSection quiz={trueFalse} />);
      for (const header of screen.getAllByRole('rowheader')) expect(header).toHaveClass('text-start');
    });
  });
});
