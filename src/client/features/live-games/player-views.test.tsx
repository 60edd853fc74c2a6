import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { OpenedQuestion, PlayerResult } from '#shared/live-games';
import type { QuizQuestion } from '#shared/quizzes';
import { MemoryRouter } from 'react-router';
import { renderTranslated as render } from '../../testing/render-translated.tsx';
import type { LiveSnapshot } from './live-session.ts';
import { emptyLiveState } from './live-state.ts';
import { PlayerView } from './player-views.tsx';

/** Issue 34: the player's screens, driven by snapshots as the session would give them. */

const NOW = Date.parse('2026-12-04T10:00:00Z');

const lobby: LiveSnapshot = {
  ...emptyLiveState,
  role: 'player',
  state: 'lobby',
  studentGame: {
    _id: 'game-1',
    state: 'lobby',
    quiz: { title: 'Capitals' },
    class: { _id: 'class-1', name: '10-A' },
    questionCount: 4,
    currentIndex: -1,
  },
  you: { _id: 'student-1', score: 1200, streak: 1, firstIndex: 0 },
  connection: 'live',
  retryNote: null,
  end: null,
};

const opened = (question: QuizQuestion, index = 1): OpenedQuestion => ({
  index,
  count: 4,
  question,
  openedAt: new Date(NOW - 5_000).toISOString(),
  deadline: new Date(NOW + 15_000).toISOString(),
  durationMs: 20_000,
  serverTime: new Date(NOW).toISOString(),
});

/** A question open with 15 seconds left on the page's clock. */
const asked = (question: QuizQuestion, changes: Partial<LiveSnapshot> = {}): LiveSnapshot => ({
  ...lobby,
  state: 'question-open',
  question: opened(question),
  deadlineAt: NOW + 15_000,
  ...changes,
});

const capital: QuizQuestion = {
  _id: 'q-capital',
  type: 'single',
  question_text: 'What is the capital of France?',
  points: 1,
  options: [
    { _id: 'o-lyon', text: 'Lyon' },
    { _id: 'o-paris', text: 'Paris' },
    { _id: 'o-nice', text: 'Nice' },
  ],
};

/** The player's result when the capital question closed: right, 850 points, third of 27. */
const capitalRight = (changes: Partial<PlayerResult> = {}): PlayerResult => ({
  index: 1,
  questionId: 'q-capital',
  outcome: 'right',
  points: 850,
  score: 2050,
  streak: 1,
  rank: 3,
  players: 27,
  ...changes,
});

const primes: QuizQuestion = {
  _id: 'q-primes',
  type: 'multiple',
  question_text: 'Which are prime?',
  points: 2,
  scoring: 'partial',
  options: [
    { _id: 'o-2', text: 'Two' },
    { _id: 'o-4', text: 'Four' },
    { _id: 'o-5', text: 'Five' },
  ],
};

function show(snapshot: LiveSnapshot, onAnswer = vi.fn()) {
  const user = userEvent.setup();
  const view = render(
    <MemoryRouter>
      <PlayerView snapshot={snapshot} now={NOW} playerName="Amira Haddad" onAnswer={onAnswer} />
    </MemoryRouter>,
  );
  const again = (next: LiveSnapshot) =>
    view.rerender(
      <MemoryRouter>
        <PlayerView snapshot={next} now={NOW} playerName="Amira Haddad" onAnswer={onAnswer} />
      </MemoryRouter>,
    );
  return { user, onAnswer, again };
}

describe('the player’s live game screens', () => {
  it('welcomes the player in the lobby with their name, class and score', () => {
    show(lobby);
    expect(screen.getByRole('heading', { name: 'You’re in!' })).toBeInTheDocument();
    expect(screen.getByText('Waiting for the teacher to start')).toBeInTheDocument();
    expect(screen.getByText('Amira Haddad').parentElement).toHaveTextContent('Amira Haddad · 10-A');
    expect(screen.getByTestId('live-score')).toHaveTextContent('1,200');
  });

  it('answers a single choice with one tap on the option, then locks the answers', async () => {
    const { user, onAnswer, again } = show(asked(capital));
    expect(screen.getByText('Question 2 of 4')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveAccessibleName('15 seconds left');
    expect(screen.getByRole('heading', { name: 'What is the capital of France?' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Paris' }));
    expect(onAnswer).toHaveBeenCalledExactlyOnceWith('o-paris');
    expect(screen.getByText('Answer sent')).toBeInTheDocument();
    for (const name of ['Lyon', 'Paris', 'Nice']) expect(screen.getByRole('button', { name })).toBeDisabled();

    // The server's acknowledgement.
    again(asked(capital, { hasAnswered: true }));
    expect(screen.getByText('Answer locked in — waiting for the others')).toBeInTheDocument();
  });

  it('sends every chosen answer of a multiple-answer question on Submit, in the options’ order', async () => {
    const { user, onAnswer } = show(asked(primes));
    const submit = screen.getByRole('button', { name: 'Submit answer' });
    expect(submit).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Five' }));
    await user.click(screen.getByRole('button', { name: 'Two' }));
    await user.click(screen.getByRole('button', { name: 'Four' }));
    await user.click(screen.getByRole('button', { name: 'Four' }));
    expect(screen.getByRole('button', { name: 'Two' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Four' })).toHaveAttribute('aria-pressed', 'false');
    expect(onAnswer).not.toHaveBeenCalled();

    await user.click(submit);
    expect(onAnswer).toHaveBeenCalledExactlyOnceWith(['o-2', 'o-5']);
  });

  it('answers true or false with one tap, and a number as typed', async () => {
    const truth: QuizQuestion = {
      _id: 'q-true',
      type: 'true-false',
      question_text: 'Water boils at 100 °C.',
      points: 1,
    };
    const first = show(asked(truth));
    await first.user.click(screen.getByRole('button', { name: 'False' }));
    expect(first.onAnswer).toHaveBeenCalledExactlyOnceWith(false);

    const half: QuizQuestion = { _id: 'q-half', type: 'numeric', question_text: 'Half of seven?', points: 1 };
    const second = show(asked(half));
    await second.user.type(screen.getByLabelText('Your answer (a number)'), '3,5');
    await second.user.click(screen.getByRole('button', { name: 'Submit answer' }));
    expect(second.onAnswer).toHaveBeenCalledExactlyOnceWith('3,5');
  });

  it('lets a player who joined during the question wait for the next one, and pauses everyone', () => {
    const { again } = show(asked(capital, { you: { _id: 'student-1', score: 0, streak: 0, firstIndex: 2 } }));
    expect(
      screen.getByText('You joined during this question: you’ll play from the next question.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Paris' })).not.toBeInTheDocument();

    again(asked(capital, { state: 'paused', paused: { index: 1, remainingMs: 9_000 } }));
    expect(screen.getByText('Paused by the teacher', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Paris' })).toBeDisabled();
  });

  it('words a refusal of the answer, and lets an unreadable one be sent again', async () => {
    const { user, onAnswer, again } = show(asked(capital));
    await user.click(screen.getByRole('button', { name: 'Nice' }));
    again(asked(capital, { refusal: { code: 'INVALID_ANSWER', seq: 1 } }));
    expect(screen.getByRole('alert')).toHaveTextContent('That answer could not be read.');
    await user.click(screen.getByRole('button', { name: 'Paris' }));
    expect(onAnswer).toHaveBeenLastCalledWith('o-paris');

    again(asked(capital, { refusal: { code: 'TIME_UP', seq: 2 } }));
    expect(screen.getByRole('alert')).toHaveTextContent('Time was up: your answer arrived too late to count.');
    expect(screen.getByRole('button', { name: 'Lyon' })).toBeDisabled();
  });

  it('shows the player’s result at the close: outcome, points, total, rank and streak', () => {
    const result = capitalRight({ streak: 3 });
    const { again } = show({ ...lobby, state: 'question-closed', result, you: { ...lobby.you!, score: 2050 } });
    expect(screen.getByRole('heading', { name: 'Right' })).toBeInTheDocument();
    expect(screen.getByText('+850 points')).toBeInTheDocument();
    expect(screen.getByText('3rd of 27')).toBeInTheDocument();
    expect(screen.getByText('3 right answers in a row')).toBeInTheDocument();
    expect(screen.getByTestId('live-score')).toHaveTextContent('2,050');

    again({
      ...lobby,
      state: 'question-closed',
      result: { ...result, outcome: 'wrong', points: 0, streak: 0, rank: 1, players: 2 },
    });
    expect(screen.getByRole('heading', { name: 'Wrong' })).toBeInTheDocument();
    expect(screen.getByText('+0 points')).toBeInTheDocument();
    expect(screen.getByText('1st of 2')).toBeInTheDocument();
  });

  it('tells a screen reader the question opened, the last seconds, a pause and the result', () => {
    // The polite live region of the player's screen (issue 34 point 7).
    const announced = () =>
      [...document.querySelectorAll('[aria-live="polite"].sr-only')].map((region) => region.textContent).join(' | ');
    const { again } = show(asked(capital));
    expect(announced()).toContain('Question 2 of 4 is open.');
    again(asked(capital, { deadlineAt: NOW + 4_000 }));
    expect(announced()).toContain('5 seconds left');
    again(asked(capital, { paused: { index: 1, remainingMs: 4_000 } }));
    expect(announced()).toContain('Paused by the teacher');
    const result = capitalRight();
    again({ ...lobby, state: 'question-closed', result });
    expect(announced()).toContain('Right. +850 points. Rank 3rd of 27.');
  });

  it('ends with the final score and rank, or says the player was removed', () => {
    const { again } = show({ ...lobby, state: 'ended', final: { score: 4200, rank: 2, players: 12 } });
    expect(screen.getByRole('heading', { name: 'The game is over' })).toBeInTheDocument();
    expect(screen.getByText('2nd of 12')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your dashboard' })).toHaveAttribute('href', '/dashboard/student');

    again({ ...lobby, connection: 'ended', end: { kind: 'closed', code: 4430, reason: 'REMOVED' } });
    expect(screen.getByText('A teacher removed you from this game.')).toBeInTheDocument();
  });

  it('says it is reconnecting, and keeps the answer for when the game is back', async () => {
    const { user } = show(asked(capital, { connection: 'reconnecting' }));
    expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Lyon' }));
    expect(screen.getByText('Answer kept: it goes as soon as the game is back')).toBeInTheDocument();
  });
});
