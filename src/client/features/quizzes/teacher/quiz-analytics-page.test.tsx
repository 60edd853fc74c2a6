import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../../../testing/render-translated.tsx';
import type { QuizQuestion } from '#shared/quizzes';
import { AnswerCell } from './quiz-analytics-page.tsx';

const multiple: QuizQuestion = {
  _id: 'm',
  type: 'multiple',
  question_text: 'Primes?',
  points: 2,
  scoring: 'partial',
  options: [
    { _id: 'o1', text: '2', correct: true },
    { _id: 'o2', text: '4', correct: false },
    { _id: 'o3', text: '5', correct: true },
  ],
};

function cell(question: QuizQuestion, answer: Parameters<typeof AnswerCell>[0]['answer']) {
  const { container, unmount } = renderTranslated(
    <table>
      <tbody>
        <tr>
          <AnswerCell question={question} answer={answer} />
        </tr>
      </tbody>
    </table>,
  );
  const td = container.querySelector('td')!;
  const result = { outcome: td.getAttribute('data-outcome'), text: td.textContent };
  unmount();
  return result;
}

describe('analytics answer cells (issue 20)', () => {
  it('shows the answer per type, green for all the points, amber for some, red for none', () => {
    expect(cell(multiple, { _id: 'm', response: ['o1', 'o3'], earnedPoints: 2 })).toMatchObject({
      outcome: 'full',
      text: expect.stringContaining('2 and 5'),
    });
    expect(cell(multiple, { _id: 'm', response: ['o1'], earnedPoints: 1 })).toMatchObject({
      outcome: 'partial',
      text: expect.stringContaining('partly correct, 1 of 2 points'),
    });
    const truth: QuizQuestion = { _id: 't', type: 'true-false', question_text: '0 even?', points: 1, correct: true };
    expect(cell(truth, { _id: 't', response: false, earnedPoints: 0 })).toMatchObject({
      outcome: 'none',
      text: expect.stringContaining('False'),
    });
    const short: QuizQuestion = {
      _id: 's',
      type: 'short-text',
      question_text: 'Capital?',
      points: 1,
      accepted: ['Paris'],
    };
    expect(cell(short, { _id: 's', response: 'paris', earnedPoints: 1 }).text).toContain('paris');
    expect(cell(short, undefined)).toMatchObject({ outcome: 'none', text: expect.stringContaining('Unanswered') });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lists a multiple-answer response in the options’ order, not the order the student chose them in', () => {
    // The runner shuffles the options per attempt, so the saved ids come in any order (issue 30, point 13).
    expect(cell(multiple, { _id: 'm', response: ['o3', 'o1'], earnedPoints: 2 }).text).toContain('2 and 5');
    expect(cell(multiple, { _id: 'm', response: ['o3', 'o2', 'o1'], earnedPoints: 1 }).text).toContain('2, 4, and 5');
  });
});
