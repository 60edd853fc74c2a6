import { describe, expect, it } from 'vitest';
import type { LiveServerMessage, OpenedQuestion } from '#shared/live-games';
import type { QuizQuestion } from '#shared/quizzes';
import { applyLiveMessage, emptyLiveState, remainingMs, type LiveState } from './live-state.ts';

/**
 * The page's picture of a live game from the server's messages (decision 066's addendum): what
 * came while the page joined may repeat the welcome, so messages apply by question index; the
 * countdown runs on the page's clock, moved by the server's.
 */

const question = (id: string): QuizQuestion => ({
  _id: id,
  type: 'true-false',
  question_text: `Question ${id}`,
  points: 1,
});

const opened = (index: number, at: number, seconds = 20): OpenedQuestion => ({
  index,
  count: 3,
  question: question(`q${index}`),
  openedAt: new Date(at).toISOString(),
  deadline: new Date(at + seconds * 1000).toISOString(),
  durationMs: seconds * 1000,
  serverTime: new Date(at).toISOString(),
});

const apply = (state: LiveState, messages: LiveServerMessage[], receivedAt = 0) =>
  messages.reduce((current, message) => applyLiveMessage(current, message, receivedAt), state);

const playerWelcome = (question: OpenedQuestion | null, answered: boolean): LiveServerMessage => ({
  type: 'player-welcome',
  game: {
    _id: 'g',
    state: question ? 'question-open' : 'lobby',
    quiz: { title: 'Quiz' },
    class: { _id: 'c', name: '10-A' },
    questionCount: 3,
    currentIndex: question?.index ?? -1,
  },
  you: { _id: 's', score: 120, streak: 1, firstIndex: 0 },
  question,
  paused: null,
  answered,
  result: null,
  final: null,
});

describe('the live game as a page knows it', () => {
  it('keeps an answered question answered when its opening comes again after the welcome', () => {
    const open = opened(1, 1_000_000);
    const state = apply(emptyLiveState, [playerWelcome(open, true), { type: 'question-opened', ...open }]);
    expect(state).toMatchObject({ role: 'player', hasAnswered: true, question: { index: 1 } });
  });

  it('ignores a close or an opening older than where the page stands', () => {
    const first = opened(0, 1_000_000);
    const second = opened(1, 1_030_000);
    let state = apply(emptyLiveState, [playerWelcome(second, false)]);
    state = applyLiveMessage(state, { type: 'question-opened', ...first });
    expect(state.question?.index).toBe(1);
    state = applyLiveMessage(state, {
      type: 'question-closed',
      index: 0,
      count: 3,
      question: question('q0'),
      distribution: { players: 1, answered: 1, right: 1, partial: 0, wrong: 0, counts: [], others: 0 },
    });
    expect(state).toMatchObject({ state: 'question-open', question: { index: 1 }, closed: null });
  });

  it("counts down on the page's own clock, whatever the server's clock says", () => {
    const serverNow = 5_000_000;
    // The page's clock is 2 s behind the server's: the deadline is 20 s after receipt all the same.
    const pageNow = serverNow - 2_000;
    const state = apply(emptyLiveState, [{ type: 'question-opened', ...opened(0, serverNow) }], pageNow);
    expect(remainingMs(state, pageNow)).toBe(20_000);
    expect(remainingMs(state, pageNow + 15_000)).toBe(5_000);
    const paused = applyLiveMessage(state, { type: 'paused', index: 0, remainingMs: 7_000 });
    expect(remainingMs(paused, pageNow + 60_000)).toBe(7_000);
  });

  it('takes ALREADY_ANSWERED as answered, and numbers each refusal', () => {
    let state = apply(emptyLiveState, [playerWelcome(opened(0, 0), false)]);
    state = applyLiveMessage(state, { type: 'error', code: 'ALREADY_ANSWERED' });
    state = applyLiveMessage(state, { type: 'error', code: 'ALREADY_ANSWERED' });
    expect(state).toMatchObject({ hasAnswered: true, refusal: { code: 'ALREADY_ANSWERED', seq: 2 } });
  });

  it('lists a player who joins once, however often the host hears it', () => {
    const joined: LiveServerMessage = { type: 'player-joined', player: { _id: 'p', name: 'Ada' }, playerCount: 1 };
    const state = apply(emptyLiveState, [joined, joined]);
    expect(state.players).toEqual([{ _id: 'p', name: 'Ada' }]);
  });

  it('hides the names already on the projector when the host hides them', () => {
    const ranked = { _id: 'p', name: 'Ada', score: 900, rank: 1, previousRank: null, streak: 1 };
    let state = apply(emptyLiveState, [{ type: 'leaderboard', index: 0, top: [ranked] }]);
    state = applyLiveMessage(state, { type: 'names-hidden', hidden: true });
    expect(state.top).toEqual([{ ...ranked, name: null }]);
    expect(state.namesHidden).toBe(true);
  });
});
