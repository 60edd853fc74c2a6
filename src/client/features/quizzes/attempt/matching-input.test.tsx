import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderTranslated as render } from '../../../testing/render-translated.tsx';
import type { QuizQuestion } from '#shared/quizzes';
import type { Responses } from '../question-response.ts';
import { QuizResult } from './quiz-result.tsx';
import { QuizRunner } from './quiz-runner.tsx';

/** Decision 045: a description and a matching question, as a student sees them (no key). */
const QUESTIONS: QuizQuestion[] = [
  { _id: 'intro', type: 'description', question_text: 'The next question is about organs.', points: 0 },
  {
    _id: 'organs',
    type: 'matching',
    question_text: 'Match each organ to what it does',
    points: 3,
    prompts: [
      { _id: 'Pq7', text: 'heart' },
      { _id: 'xA2', text: 'lungs' },
    ],
    choices: [
      { _id: 'k9Z', text: 'exchange gases' },
      { _id: 'b0c', text: 'digest food' },
      { _id: 'Mm1', text: 'pumps blood' },
    ],
  },
  { _id: 'truth', type: 'true-false', question_text: 'The heart is a muscle.', points: 1 },
];

type Saved = { questionId: string; value: unknown };

function Runner({ saved, initial = {} }: { saved: Saved[]; initial?: Responses }) {
  const [answers, setAnswers] = useState<Responses>(initial);
  return (
    <QuizRunner
      title="Organs"
      background="/bg.png"
      questions={QUESTIONS}
      answers={answers}
      onAnswer={(questionId, value) => {
        saved.push({ questionId, value });
        setAnswers((current) => ({ ...current, [questionId]: value }));
      }}
      secondsLeft={600}
      onSubmit={() => {}}
      isSubmitting={false}
    />
  );
}

describe('matching questions and descriptions in the runner (decision 045)', () => {
  it('shows a description unnumbered, then a labelled select per prompt, reached and used by keyboard', async () => {
    const user = userEvent.setup();
    const saved: Saved[] = [];
    render(<Runner saved={saved} />);

    expect(screen.getByText('Read this before going on')).toBeInTheDocument();
    expect(screen.getByText('The next question is about organs.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    await user.keyboard('{Tab}');
    expect(screen.getByRole('button', { name: 'Next question' })).toHaveFocus();
    await user.keyboard('{Enter}');

    // Descriptions take no number: the matching question is question 1 of 2.
    expect(screen.getByText('Question 1 of 2 · 3 points')).toBeInTheDocument();
    const heart = screen.getByRole('combobox', { name: 'heart' });
    const lungs = screen.getByRole('combobox', { name: 'lungs' });
    // Every match is offered to every prompt, in the order the server gave (the attempt's shuffle).
    expect(
      within(heart)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose…', 'exchange gases', 'digest food', 'pumps blood']);
    await user.keyboard('{Tab}');
    expect(heart).toHaveFocus();
    await user.selectOptions(heart, 'pumps blood');
    await user.keyboard('{Tab}');
    expect(lungs).toHaveFocus();
    await user.selectOptions(lungs, 'digest food');
    // Back to "Choose…" takes the prompt out of the answer; the last one out clears it.
    await user.selectOptions(lungs, 'Choose…');
    await user.selectOptions(heart, 'Choose…');
    expect(saved).toEqual([
      { questionId: 'organs', value: { Pq7: 'Mm1' } },
      { questionId: 'organs', value: { Pq7: 'Mm1', xA2: 'b0c' } },
      { questionId: 'organs', value: { Pq7: 'Mm1' } },
      { questionId: 'organs', value: null },
    ]);
  });

  it('resumes a saved matching and counts only questions as unanswered', async () => {
    const user = userEvent.setup();
    render(<Runner saved={[]} initial={{ organs: { xA2: 'k9Z' } }} />);
    await user.click(screen.getByRole('button', { name: 'Next question' }));
    expect(screen.getByRole('combobox', { name: 'lungs' })).toHaveValue('k9Z');
    expect(screen.getByRole('combobox', { name: 'heart' })).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Next question' }));
    expect(screen.getByText('1 unanswered question')).toBeInTheDocument();
  });

  it('reviews each prompt beside its correct match once the key is there, and shows no points for a description', () => {
    const keyed = QUESTIONS.map((question) =>
      question.type === 'matching'
        ? {
            ...question,
            prompts: [
              { _id: 'Pq7', text: 'heart', match: 'Mm1' },
              { _id: 'xA2', text: 'lungs', match: 'k9Z' },
            ],
            response: { Pq7: 'Mm1', xA2: 'b0c' },
            earnedPoints: 1.5,
          }
        : question,
    );
    render(
      <QuizResult title="Organs" score={1.5} totalPoints={4} accuracy="37.5" endedBy="submitted" questions={keyed} />,
    );
    const items = screen.getAllByTestId('review-question');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).queryByTestId('review-points')).not.toBeInTheDocument();
    expect(within(items[0]!).queryByText('Not answered')).not.toBeInTheDocument();
    expect(within(items[1]!).getByText('Q1.')).toBeInTheDocument();
    expect(within(items[1]!).getByTestId('review-points')).toHaveTextContent('1.5 / 3 points');
    const rows = within(items[1]!).getAllByRole('listitem');
    expect(rows.map((row) => [row.dataset.review, row.textContent])).toEqual([
      ['correct', 'heartYour match: pumps blood · correct'],
      ['wrong', 'lungsYour match: digest food · correct match: exchange gases'],
    ]);
  });

  it('reviews a matching without the key as the student’s matches only', () => {
    const answered = QUESTIONS.map((question) =>
      question.type === 'matching' ? { ...question, response: { Pq7: 'Mm1' } } : question,
    );
    render(<QuizResult title="Organs" totalPoints={4} endedBy="submitted" questions={answered} />);
    const rows = within(screen.getAllByTestId('review-question')[1]!).getAllByRole('listitem');
    expect(rows.map((row) => [row.dataset.review, row.textContent])).toEqual([
      ['chosen', 'heartYour match: pumps blood'],
      ['chosen', 'lungsYour match: none'],
    ]);
  });
});
