import type { Messages } from '@lingui/core';
import { act, cleanup, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { LiveGameSummary, LiveServerMessage, RankedPlayer } from '#shared/live-games';
import type { QuizQuestion } from '#shared/quizzes';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { useTypedAnswersHidden } from './host-preferences.ts';
import { HostView } from './host-view.tsx';
import type { LiveSnapshot } from './live-session.ts';
import { applyLiveMessage, emptyLiveState } from './live-state.ts';
import { hostWelcome } from './live-test-messages.ts';

/**
 * The host's page as a pure view of the session's snapshot (issue 34 point 2): the snapshots are
 * built from the server's own messages through live-state.ts, as the page's session builds them,
 * and each button must send its command of the protocol (decision 066).
 */

const NOW = Date.parse('2026-12-04T10:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

const game = (overrides: Partial<LiveGameSummary> = {}): LiveGameSummary => ({
  _id: '0b7c1a52-6f1e-4c57-9f5e-1a2b3c4d5e6f',
  pin: '482193',
  state: 'lobby',
  quiz: { _id: 'a3f1c2d4-1111-4222-8333-944455566677', title: 'Fractions' },
  class: { _id: 'c1', name: '7-B' },
  createdBy: { _id: 't1', name: 'Ms Rivera' },
  questionCount: 10,
  skippedCount: 0,
  questionSeconds: 20,
  currentIndex: -1,
  playerCount: 2,
  countsTowardLeaderboard: false,
  namesHidden: false,
  createdAt: at(-60_000),
  startedAt: null,
  endedAt: null,
  ...overrides,
});

const choiceQuestion = (withKey: boolean): QuizQuestion => ({
  _id: 'q3',
  type: 'single',
  question_text: 'What is 1/2 + 1/4?',
  points: 1,
  options: [
    { _id: 'o-a', text: '3/4', ...(withKey ? { correct: true } : {}) },
    { _id: 'o-b', text: '2/6', ...(withKey ? { correct: false } : {}) },
    { _id: 'o-c', text: '1/8', ...(withKey ? { correct: false } : {}) },
  ],
});

const players = [
  { _id: '5b0e8a8e-0000-4000-8000-000000000001', name: 'Ana Ruiz' },
  { _id: '5b0e8a8e-0000-4000-8000-000000000002', name: 'Omar Haddad' },
];

/** The snapshot after these messages, live unless told otherwise. */
function snapshotOf(messages: LiveServerMessage[], extra: Partial<LiveSnapshot> = {}): LiveSnapshot {
  const state = messages.reduce((current, message) => applyLiveMessage(current, message, NOW), emptyLiveState);
  return { ...state, connection: 'live', retryNote: null, end: null, ...extra };
}

/** The host's welcome to the lobby of `game()` with its two players, with `overrides`. */
const welcome = (overrides: Parameters<typeof hostWelcome>[1] = {}) => hostWelcome(game(), { players, ...overrides });

const opened: LiveServerMessage = {
  type: 'question-opened',
  index: 2,
  count: 10,
  question: choiceQuestion(false),
  openedAt: at(0),
  deadline: at(20_000),
  durationMs: 20_000,
  serverTime: at(0),
};

const ranked = (rank: number, name: string | null, previousRank: number | null, score: number): RankedPlayer => ({
  _id: `p${rank}`,
  name,
  score,
  rank,
  previousRank,
  streak: 1,
});

const closedAt = (index: number): LiveServerMessage => ({
  type: 'question-closed',
  index,
  count: 10,
  question: choiceQuestion(true),
  distribution: {
    players: 27,
    answered: 18,
    right: 11,
    partial: 0,
    wrong: 7,
    counts: [
      { key: 'o-a', count: 11 },
      { key: 'o-b', count: 5 },
      { key: 'o-c', count: 2 },
    ],
    others: 0,
  },
});

/** A short-text question closed: what the class typed, right ones and the rest. */
const typedClosed: LiveServerMessage = {
  type: 'question-closed',
  index: 4,
  count: 10,
  question: { _id: 'q5', type: 'short-text', question_text: 'Capital of France?', points: 1, accepted: ['Paris'] },
  distribution: {
    players: 27,
    answered: 20,
    right: 14,
    partial: 0,
    wrong: 6,
    counts: [
      { key: 'Paris', count: 14 },
      { key: 'Lyon', count: 4 },
      { key: 'something rude', count: 2 },
    ],
    others: 3,
  },
};

/** The snapshot once question 3 opened and `closed` closed a question. */
const closedWith = (closed: LiveServerMessage) =>
  snapshotOf([welcome({ game: game({ state: 'question-open' }) }), opened, closed]);

/** The rows of the projector's Answers region, and what they read. */
const answerRows = () => within(screen.getByRole('region', { name: 'Answers' })).getAllByRole('listitem');
const answerTexts = () => answerRows().map((row) => row.textContent);

function renderHost(
  snapshot: LiveSnapshot,
  now = NOW,
  messages?: Messages,
  locale = 'en',
  extra: { typedAnswersHidden?: boolean } = {},
) {
  const onCommand = vi.fn();
  const onTakeBack = vi.fn();
  const onTypedAnswersHiddenChange = vi.fn();
  renderTranslated(
    <MemoryRouter>
      <HostView
        snapshot={snapshot}
        now={now}
        joinUrl="https://school.example/live"
        qrCode={<svg role="img" aria-label="QR" />}
        onCommand={onCommand}
        typedAnswersHidden={extra.typedAnswersHidden ?? false}
        onTypedAnswersHiddenChange={onTypedAnswersHiddenChange}
        onTakeBack={onTakeBack}
      />
    </MemoryRouter>,
    messages ? { locale, messages } : {},
  );
  return { onCommand, onTakeBack, onTypedAnswersHiddenChange, user: userEvent.setup() };
}

describe('HostView', () => {
  it('shows the lobby: join address, PIN, QR code and the names; removes a player, sets the time, starts', async () => {
    const { onCommand, user } = renderHost(snapshotOf([welcome()]));
    expect(screen.getByTestId('live-pin')).toHaveTextContent(/^482193$/);
    expect(screen.getByTestId('live-pin')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByText('https://school.example/live')).toBeVisible();
    expect(screen.getByRole('img', { name: 'QR' })).toBeInTheDocument();
    const roster = screen.getByRole('list', { name: 'Players' });
    expect(
      within(roster)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Ana Ruiz', 'Omar Haddad']);
    expect(screen.getByRole('heading', { name: '2 players' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Remove Omar Haddad' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'remove-player', studentId: players[1]!._id });

    const seconds = screen.getByRole('spinbutton', { name: 'Seconds per question' });
    expect(seconds).toHaveValue(20);
    await user.clear(seconds);
    await user.type(seconds, '300');
    await user.click(screen.getByRole('button', { name: 'Set time' }));
    expect(screen.getByText('Choose a whole number of seconds from 5 to 240.')).toBeVisible();
    expect(onCommand).toHaveBeenCalledTimes(1);
    await user.clear(seconds);
    await user.type(seconds, '45');
    await user.click(screen.getByRole('button', { name: 'Set time' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'set-question-seconds', seconds: 45 });

    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'start' });
  });

  it('names joining players as they come, and cannot start an empty lobby', () => {
    const { onCommand } = renderHost(snapshotOf([welcome({ game: game({ playerCount: 0 }), players: [] })]));
    expect(screen.getByText('No one has joined yet.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    expect(onCommand).not.toHaveBeenCalled();
  });

  it('counts, on a projector that comes back mid-question, of the players who may answer it', () => {
    // Three in the game, one of whom joined during this question: "1 of 2", not "1 of 3".
    const { type: _opened, ...question } = opened;
    renderHost(
      snapshotOf([
        welcome({ game: game({ state: 'question-open', playerCount: 3 }), question, answered: 1, answering: 2 }),
      ]),
      NOW + 1_000,
    );
    expect(screen.getByText('1 of 2')).toBeVisible();
  });

  it('shows the open question with its number, options, countdown and answers, and sends each control', async () => {
    const snapshot = snapshotOf([
      welcome({ game: game({ state: 'question-open', playerCount: 27 }) }),
      opened,
      { type: 'answer-count', index: 2, answered: 18, players: 27 },
    ]);
    const { onCommand, user } = renderHost(snapshot, NOW + 7_400);
    expect(screen.getByRole('heading', { name: 'Question 3 of 10' })).toBeVisible();
    expect(screen.getByText('What is 1/2 + 1/4?')).toBeVisible();
    expect(within(screen.getByRole('list', { name: 'Options' })).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('18 of 27')).toBeVisible();
    expect(screen.getByRole('timer', { name: 'Time left' })).toHaveTextContent('0:13');
    expect(screen.getByTestId('live-announcer')).toHaveTextContent('Question 3 of 10 is open.');

    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'pause', index: 2 });
    await user.click(screen.getByRole('button', { name: 'Add 10 seconds' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'add-time', index: 2, seconds: 10 });
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'skip', index: 2 });

    // Ending asks first; Cancel sends nothing.
    await user.click(screen.getByRole('button', { name: 'End game' }));
    const dialog = screen.getByRole('alertdialog', { name: 'End the game now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCommand).not.toHaveBeenCalledWith({ type: 'end' });
    await user.click(screen.getByRole('button', { name: 'End game' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'End game' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'end' });
  });

  it('says when time is almost up, and resumes a paused question', async () => {
    const open = snapshotOf([welcome({ game: game({ state: 'question-open' }) }), opened]);
    const { unmount } = renderTranslated(
      <MemoryRouter>
        <HostView snapshot={open} now={NOW + 15_500} joinUrl="" onCommand={() => {}} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('live-announcer')).toHaveTextContent('Time almost up: 5 seconds left.');
    unmount();

    const paused = snapshotOf([
      welcome({ game: game({ state: 'question-open' }) }),
      opened,
      { type: 'paused', index: 2, remainingMs: 9_000 },
    ]);
    const { onCommand, user } = renderHost(paused, NOW + 60_000);
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'resume', index: 2 });
  });

  it('shows a closed question: the right answer marked, the spread with numbers, the top five, then Next', async () => {
    const snapshot = snapshotOf([
      welcome({ game: game({ state: 'question-open' }) }),
      opened,
      closedAt(2),
      {
        type: 'leaderboard',
        index: 2,
        top: [ranked(1, 'Omar Haddad', 3, 2450), ranked(2, 'Ana Ruiz', 1, 2300), ranked(3, 'Lea Kim', 2, 1900)],
      },
    ]);
    const { onCommand, user } = renderHost(snapshot);
    expect(screen.getByRole('heading', { name: 'Question 3 of 10: closed' })).toBeVisible();
    expect(screen.getByText('18 of 27 answered · 11 right · 0 partly right · 7 wrong')).toBeVisible();
    const rows = answerRows();
    expect(rows.map((row) => row.textContent)).toEqual([
      '3/4Right answer1111 answers',
      '2/655 answers',
      '1/822 answers',
    ]);
    expect(rows[0]).toHaveAttribute('data-right', 'true');
    expect(rows[1]).not.toHaveAttribute('data-right');

    const top = within(screen.getByRole('region', { name: 'Top five' })).getAllByRole('listitem');
    expect(top[0]).toHaveTextContent('Omar Haddad');
    expect(top[0]).toHaveTextContent('up 2 places');
    expect(top[0]).toHaveTextContent('2,450 points');
    expect(top[1]).not.toHaveTextContent('up');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'next', from: 2 });
  });

  it('offers the podium after the last question, and hides names on the projector', async () => {
    const snapshot = snapshotOf([
      welcome({ game: game({ state: 'question-open', namesHidden: true }) }),
      { ...opened, index: 9 },
      closedAt(9),
      { type: 'leaderboard', index: 9, top: [ranked(1, null, 1, 9000)] },
    ]);
    const { onCommand, user } = renderHost(snapshot);
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show podium' }));
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'next', from: 9 });

    expect(within(screen.getByRole('region', { name: 'Top five' })).getByRole('listitem')).toHaveTextContent(
      /^1Rank 1Player9,000 points$/,
    );
    const hide = screen.getByRole('button', { name: 'Hide names' });
    expect(hide).toHaveAttribute('aria-pressed', 'true');
    await user.click(hide);
    expect(onCommand).toHaveBeenLastCalledWith({ type: 'hide-names', hidden: false });
  });

  it('shows the podium at the end with a way to the quiz’s analytics', () => {
    renderHost(
      snapshotOf([
        welcome({ game: game({ state: 'question-open' }) }),
        {
          type: 'ended',
          podium: [ranked(1, 'Omar Haddad', 2, 9000), ranked(2, 'Ana Ruiz', 1, 8000), ranked(3, 'Lea Kim', 3, 100)],
          players: 27,
        },
      ]),
    );
    const podium = within(screen.getByRole('list', { name: 'Podium' })).getAllByRole('listitem');
    expect(podium.map((place) => place.textContent)).toEqual([
      '1Rank 1Omar Haddad9,000 points',
      '2Rank 2Ana Ruiz8,000 points',
      '3Rank 3Lea Kim100 points',
    ]);
    expect(screen.getByRole('link', { name: "See the game's report" })).toHaveAttribute(
      'href',
      `/dashboard/teacher/quiz-analytics/a3f1c2d4-1111-4222-8333-944455566677/live/${game()._id}`,
    );
    expect(screen.queryByRole('button', { name: 'End game' })).toBeNull();
  });

  it('says when it reconnects (controls wait) and when the game is gone', () => {
    const { unmount } = renderTranslated(
      <MemoryRouter>
        <HostView
          snapshot={snapshotOf([welcome()], { connection: 'reconnecting' })}
          now={NOW}
          joinUrl=""
          onCommand={() => {}}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting…');
    expect(screen.getByRole('button', { name: 'Start' })).toBeDisabled();
    unmount();

    renderHost(snapshotOf([], { connection: 'ended', end: { kind: 'closed', code: 4510, reason: 'GAME_ENDED' } }));
    expect(screen.getByRole('alert')).toHaveTextContent('The game is over.');
    expect(screen.getByRole('link', { name: 'Back to your quizzes' })).toHaveAttribute(
      'href',
      '/dashboard/teacher/all-quiz',
    );
  });

  it('says when another screen took the game, and takes it back here on request', async () => {
    const taken = snapshotOf([welcome()], {
      connection: 'ended',
      end: { kind: 'closed', code: 4001, reason: 'REPLACED' },
    });
    const { onTakeBack, onCommand, user } = renderHost(taken);
    expect(screen.getByRole('heading', { name: 'The game is on another screen' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You opened this game on another page or computer: it goes on there.',
    );
    // None of the controls of a game this screen no longer runs.
    expect(screen.queryByRole('button', { name: 'Start' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to your quizzes' })).toHaveAttribute(
      'href',
      '/dashboard/teacher/all-quiz',
    );
    await user.click(screen.getByRole('button', { name: 'Take it back here' }));
    expect(onTakeBack).toHaveBeenCalledOnce();
    expect(onCommand).not.toHaveBeenCalled();
  });

  it('offers no taking back when the game itself is over', () => {
    renderHost(
      snapshotOf([welcome()], { connection: 'ended', end: { kind: 'closed', code: 4510, reason: 'GAME_ENDED' } }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The game is over.');
    expect(screen.queryByRole('button', { name: 'Take it back here' })).toBeNull();
  });

  it('shows typed answers, or with them hidden only how many were right and wrong', async () => {
    const snapshot = closedWith(typedClosed);
    const shown = renderHost(snapshot);
    const toggle = screen.getByRole('button', { name: 'Hide typed answers' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    const region = screen.getByRole('region', { name: 'Answers' });
    expect(region).toHaveTextContent('something rude');
    expect(region).toHaveTextContent('Lyon');
    expect(region).toHaveTextContent('Other answers');
    await shown.user.click(toggle);
    expect(shown.onTypedAnswersHiddenChange).toHaveBeenLastCalledWith(true);
    cleanup();

    const hidden = renderHost(snapshot, NOW, undefined, 'en', { typedAnswersHidden: true });
    expect(screen.getByRole('button', { name: 'Hide typed answers' })).toHaveAttribute('aria-pressed', 'true');
    const answers = screen.getByRole('region', { name: 'Answers' });
    expect(answers).not.toHaveTextContent('something rude');
    expect(answers).not.toHaveTextContent('Lyon');
    expect(answers).not.toHaveTextContent('Other answers');
    expect(answers).toHaveTextContent('Typed answers are hidden on this screen.');
    // The key is the teacher's own: it stays.
    expect(answers).toHaveTextContent('Right answer: Paris');
    expect(
      within(answers)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['Right answers1414 answers', 'Wrong answers66 answers']);
    await hidden.user.click(screen.getByRole('button', { name: 'Hide typed answers' }));
    expect(hidden.onTypedAnswersHiddenChange).toHaveBeenLastCalledWith(false);
  });

  it('marks the typed answers worth all of the points as the right answer, in words', () => {
    renderHost(closedWith(typedClosed));
    expect(answerTexts()).toEqual([
      'ParisRight answer1414 answers',
      'Lyon44 answers',
      'something rude22 answers',
      'Other answers33 answers',
    ]);
    cleanup();

    // A number: any value within the tolerance is right, and so is a further full answer.
    const numberClosed: LiveServerMessage = {
      type: 'question-closed',
      index: 5,
      count: 10,
      question: {
        _id: 'q6',
        type: 'numeric',
        question_text: 'Half of 7?',
        points: 1,
        value: 3.5,
        tolerance: 0.1,
        partial: [
          { value: 7 / 2, tolerance: 0, weight: 100 },
          { value: 3, tolerance: 0, weight: 50 },
        ],
      },
      distribution: {
        players: 27,
        answered: 20,
        right: 12,
        partial: 3,
        wrong: 5,
        counts: [
          { key: '3.5', count: 9 },
          { key: '3.55', count: 3 },
          { key: '3', count: 3 },
          { key: 'seven halves', count: 5 },
        ],
        others: 0,
      },
    };
    renderHost(closedWith(numberClosed));
    const numbers = answerRows();
    expect(numbers.map((row) => row.textContent)).toEqual([
      '3.5Right answer99 answers',
      '3.55Right answer33 answers',
      '333 answers',
      'seven halves55 answers',
    ]);
    expect(numbers.map((row) => row.dataset.right ?? '')).toEqual(['true', 'true', '', '']);
  });

  it('leaves the options of a choice question as they are with typed answers hidden', () => {
    renderHost(closedWith(closedAt(2)), NOW, undefined, 'en', {
      typedAnswersHidden: true,
    });
    expect(answerTexts()).toEqual(['3/4Right answer1111 answers', '2/655 answers', '1/822 answers']);
  });

  it('keeps the choice to hide typed answers for the tab, and reads a damaged one as shown', () => {
    window.sessionStorage.setItem('studyhall:live-host:typed-answers-hidden', 'yes please');
    const first = renderHook(() => useTypedAnswersHidden());
    expect(first.result.current[0]).toBe(false);
    act(() => first.result.current[1](true));
    expect(first.result.current[0]).toBe(true);
    first.unmount();
    // A reload of the page: the same choice.
    expect(renderHook(() => useTypedAnswersHidden()).result.current[0]).toBe(true);
    window.sessionStorage.clear();
  });

  it('words the page in Arabic, the PIN left to right', async () => {
    const catalog = ((await import('../../locales/ar/messages.po')) as { messages: Messages }).messages;
    renderHost(snapshotOf([welcome()]), NOW, catalog, 'ar');
    expect(screen.getByTestId('live-pin')).toHaveTextContent('482193');
    expect(screen.getByRole('button', { name: 'ابدأ' })).toBeVisible();
  });
});
