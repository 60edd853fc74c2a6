import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_GAME_CLOSE_CODES } from '#shared/live-game-basics';
import type { RankedPlayer } from '#shared/live-games';
import { openApp } from '../../testing/open-app.tsx';
import {
  addQuiz,
  openLiveGame,
  signInAs,
  signUpStudent,
  signUpTeacher,
  teacherClasses,
} from '../../testing/server-actors.ts';
import { hostWelcome } from './live-test-messages.ts';

/**
 * The live game's screens as the router frames them (review of issue 34): the projector and the
 * phone are focused screens, without the dashboard's header and menu, each with its small Leave,
 * and the projector with a Full screen where the browser has one.
 */

/** A socket that never opens: the game's socket is not these tests' subject. */
class StillConnecting extends EventTarget {
  static readonly OPEN = 1;
  readonly readyState = 0;
  send() {}
  close() {}
}

/**
 * The game's sockets of a page whose first socket is taken over at once by another screen (the room
 * layer's REPLACED, 4001) after its join; the later ones stay connecting.
 */
function socketsTakenOnce() {
  const opened: string[] = [];
  class TakenOnce extends EventTarget {
    static readonly OPEN = 1;
    readyState = 0;
    onopen: (() => void) | null = null;
    onclose: ((event: { code: number }) => void) | null = null;
    onmessage: (() => void) | null = null;
    private readonly isFirst: boolean;
    constructor(url: string) {
      super();
      opened.push(url);
      this.isFirst = opened.length === 1;
      setTimeout(() => {
        this.readyState = this.isFirst ? 1 : 0;
        if (this.isFirst) this.onopen?.();
      }, 0);
    }
    send() {
      // The join went out; another screen of the same teacher takes the seat.
      setTimeout(() => {
        this.readyState = 3;
        this.onclose?.({ code: 4001 });
      }, 0);
    }
    close() {}
  }
  vi.stubGlobal('WebSocket', TakenOnce);
  return opened;
}

/** What the server says on the nth socket (0-based) of the page once it has joined: messages, then maybe a close. */
type SocketScript = (index: number) => { messages: object[]; closeCode?: number } | null;

/**
 * The game's sockets of a page, each answering its join as `script` says (none: it stays open and
 * quiet). Returns the addresses opened, in order: a page that reconnects opens more.
 */
function scriptedSockets(script: SocketScript) {
  const opened: string[] = [];
  class Scripted extends EventTarget {
    static readonly OPEN = 1;
    readyState = 0;
    onopen: (() => void) | null = null;
    onclose: ((event: { code: number }) => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    private readonly index: number;
    constructor(url: string) {
      super();
      this.index = opened.length;
      opened.push(url);
      setTimeout(() => {
        this.readyState = 1;
        this.onopen?.();
      }, 0);
    }
    send(data: string) {
      if ((JSON.parse(data) as { type: string }).type !== 'join') return;
      const plan = script(this.index);
      if (!plan) return;
      setTimeout(() => {
        for (const message of plan.messages) this.onmessage?.({ data: JSON.stringify(message) });
        if (plan.closeCode !== undefined) {
          this.readyState = 3;
          this.onclose?.({ code: plan.closeCode });
        }
      }, 0);
    }
    close() {
      this.readyState = 3;
    }
  }
  vi.stubGlobal('WebSocket', Scripted);
  return opened;
}

/** The podium of a game its one student won. */
const podiumOf = (studentId: string, name: string) =>
  [{ _id: studentId, name, score: 950, rank: 1, previousRank: 1, streak: 1 }] satisfies RankedPlayer[];

/** A class name of this test's own: class names are unique in the school. */
const newClassName = () => `Live ${Math.random().toString(36).slice(2, 8)}`;

async function gameOfClass() {
  const teacher = await signUpTeacher();
  const className = newClassName();
  const quiz = await addQuiz(teacher, { class: className });
  const student = await signUpStudent({ class: className, teacher });
  const classId = (await teacherClasses(teacher)).find((taught) => taught.name === className)!._id;
  const game = await openLiveGame(teacher, quiz._id, classId);
  return { teacher, student, game, className, quiz };
}

/** The Fullscreen API as a browser that has it: jsdom has none. */
function withFullscreenApi() {
  const requestFullscreen = vi.fn(async () => {
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: document.documentElement });
    document.dispatchEvent(new Event('fullscreenchange'));
  });
  const exitFullscreen = vi.fn(async () => {
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: null });
    document.dispatchEvent(new Event('fullscreenchange'));
  });
  Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, value: true });
  Object.defineProperty(document, 'fullscreenElement', { configurable: true, value: null });
  Object.defineProperty(document, 'exitFullscreen', { configurable: true, value: exitFullscreen });
  Object.defineProperty(document.documentElement, 'requestFullscreen', {
    configurable: true,
    value: requestFullscreen,
  });
  return { requestFullscreen, exitFullscreen };
}

afterEach(() => {
  vi.unstubAllGlobals();
  for (const name of ['fullscreenEnabled', 'fullscreenElement', 'exitFullscreen'] as const) {
    Reflect.deleteProperty(document, name);
  }
  Reflect.deleteProperty(document.documentElement, 'requestFullscreen');
});

describe('the projector (host page)', () => {
  it('fills the window: no dashboard header or menu, a Leave to the quizzes, no Full screen without the API', async () => {
    const { teacher, game } = await gameOfClass();
    signInAs(teacher, 'teacher');
    vi.stubGlobal('WebSocket', StillConnecting);
    await openApp(`/dashboard/teacher/live/${game._id}`);
    const bar = await screen.findByRole('navigation', { name: 'Live game' });
    expect(within(bar).getByRole('link', { name: 'Leave' })).toHaveAttribute('href', '/dashboard/teacher/all-quiz');
    expect(screen.getByRole('main')).toContainElement(bar);
    expect(screen.queryByRole('navigation', { name: 'Teacher menu' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Full screen' })).toBeNull();
  });

  it('goes full screen and back with its button where the browser can', async () => {
    const { teacher, game } = await gameOfClass();
    signInAs(teacher, 'teacher');
    vi.stubGlobal('WebSocket', StillConnecting);
    const { requestFullscreen, exitFullscreen } = withFullscreenApi();
    const { user } = await openApp(`/dashboard/teacher/live/${game._id}`);
    await user.click(await screen.findByRole('button', { name: 'Full screen' }));
    expect(requestFullscreen).toHaveBeenCalledOnce();
    await user.click(await screen.findByRole('button', { name: 'Exit full screen' }));
    expect(exitFullscreen).toHaveBeenCalledOnce();
    expect(await screen.findByRole('button', { name: 'Full screen' })).toBeVisible();
  });

  it('takes the game back from another screen with a new connection', async () => {
    const { teacher, game } = await gameOfClass();
    signInAs(teacher, 'teacher');
    const opened = socketsTakenOnce();
    const { user } = await openApp(`/dashboard/teacher/live/${game._id}`);
    await user.click(await screen.findByRole('button', { name: 'Take it back here' }));
    expect(await screen.findByText('Opening the game…')).toBeInTheDocument();
    // The new session asks for its token, then opens a socket of its own.
    await waitFor(() => expect(opened).toHaveLength(2));
    // Still the projector's frame, its Leave and all.
    expect(screen.getByRole('link', { name: 'Leave' })).toBeVisible();
  });

  it('puts the focus on the game’s heading once it is back here', async () => {
    const { teacher, game, quiz } = await gameOfClass();
    signInAs(teacher, 'teacher');
    // The first screen's seat is taken at once (REPLACED); the second socket gets the game back.
    const opened = scriptedSockets((index) =>
      index === 0
        ? { messages: [], closeCode: 4001 }
        : { messages: [{ type: 'seated', seatId: 'seat-back-here' }, hostWelcome(game)] },
    );
    const { user } = await openApp(`/dashboard/teacher/live/${game._id}`);
    const takeBack = await screen.findByRole('button', { name: 'Take it back here' });
    await user.click(takeBack);
    const heading = await screen.findByRole('heading', { level: 1, name: quiz.title });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(opened).toHaveLength(2);
    // The keyboard goes on from there: the next stop is a control of the game.
    await user.tab();
    expect(document.activeElement).not.toBe(document.body);
  });

  it('keeps the podium once the server closes the ended game, and does not reconnect', async () => {
    const { teacher, game } = await gameOfClass();
    signInAs(teacher, 'teacher');
    const ended = { type: 'ended', podium: podiumOf('5b0e8a8e-0000-4000-8000-00000000ada1', 'Ada'), players: 1 };
    const opened = scriptedSockets(() => ({
      messages: [
        { type: 'seated', seatId: 'seat-host' },
        hostWelcome(game, { game: { ...game, state: 'question-closed' } }),
        ended,
      ],
      closeCode: LIVE_GAME_CLOSE_CODES.GAME_ENDED,
    }));
    await openApp(`/dashboard/teacher/live/${game._id}`);
    expect(await screen.findByRole('heading', { name: 'The game is over' })).toBeVisible();
    const podium = within(screen.getByRole('list', { name: 'Podium' })).getAllByRole('listitem');
    expect(podium.map((place) => place.textContent)).toEqual(['1Rank 1Ada950 points']);
    // The heading says it: no alarm or second notice over the podium, no "lost connection".
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText(/connection/i)).toBeNull();
    // Back online or not, the page does not try again: the game is over.
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(opened).toHaveLength(1);
    expect(screen.getByRole('list', { name: 'Podium' })).toBeVisible();
  });

  it('keeps the header and menu on the other teacher screens', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    await openApp('/dashboard/teacher/all-quiz');
    expect(await screen.findByRole('navigation', { name: 'Teacher menu' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Live game' })).toBeNull();
  });
});

describe('the phone (player page)', () => {
  it('keeps the final score once the server closes the ended game, and does not reconnect', async () => {
    const { student, game } = await gameOfClass();
    signInAs(student, 'student');
    const studentGame = {
      _id: game._id,
      state: 'question-closed',
      quiz: { title: game.quiz.title },
      class: game.class,
      questionCount: game.questionCount,
      currentIndex: 0,
    };
    const opened = scriptedSockets(() => ({
      messages: [
        { type: 'seated', seatId: 'seat-player' },
        {
          type: 'player-welcome',
          game: studentGame,
          you: { _id: '5b0e8a8e-0000-4000-8000-00000000ada1', score: 950, streak: 1, firstIndex: 0 },
          question: null,
          paused: null,
          answered: false,
          result: null,
          final: null,
        },
        { type: 'ended', podium: podiumOf('5b0e8a8e-0000-4000-8000-00000000ada1', 'Ada'), players: 1 },
        { type: 'your-final', score: 950, rank: 1, players: 1 },
      ],
      closeCode: LIVE_GAME_CLOSE_CODES.GAME_ENDED,
    }));
    await openApp(`/dashboard/student/live/${game._id}`);
    expect(await screen.findByRole('heading', { name: 'The game is over' })).toBeVisible();
    expect(screen.getByText('Final score')).toBeVisible();
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(opened).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'The game is over' })).toBeVisible();
    expect(screen.queryByText('Not in the game')).toBeNull();
  });

  it('gives the game the whole width: no menu rail or header, a small Leave to the dashboard', async () => {
    const { student, game } = await gameOfClass();
    signInAs(student, 'student');
    vi.stubGlobal('WebSocket', StillConnecting);
    await openApp(`/dashboard/student/live/${game._id}`);
    expect(await screen.findByText('Joining the game…')).toBeInTheDocument();
    const bar = screen.getByRole('navigation', { name: 'Live game' });
    expect(within(bar).getByRole('link', { name: 'Leave' })).toHaveAttribute('href', '/dashboard/student');
    expect(screen.queryByRole('navigation', { name: 'Student menu' })).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
  });
});

/** Whether leaving the page now would ask first (the study shell's beforeunload handler cancels the event). */
const leavingAsks = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('study mode and the live game (decision 070)', () => {
  it('lets the player screen and the PIN page through: no overlay, no question before a reload', async () => {
    const { student, game } = await gameOfClass();
    signInAs(student, 'student');
    withFullscreenApi();
    vi.stubGlobal('WebSocket', StillConnecting);
    const { router } = await openApp(`/dashboard/student/live/${game._id}`);
    expect(await screen.findByText('Joining the game…')).toBeInTheDocument();
    expect(screen.queryByTestId('study-mode-overlay')).toBeNull();
    expect(leavingAsks()).toBe(false);

    await router.navigate('/dashboard/student/live');
    expect(await screen.findByRole('heading', { name: 'Join a live game' })).toBeInTheDocument();
    expect(screen.queryByTestId('study-mode-overlay')).toBeNull();
    expect(leavingAsks()).toBe(false);

    // Back on the dashboard, study mode is on again.
    await router.navigate('/dashboard/student');
    expect(await screen.findByTestId('study-mode-overlay')).toBeInTheDocument();
    expect(leavingAsks()).toBe(true);
  });

  it('shows the way to the game on the overlay of a locked dashboard: the PIN page and its Join', async () => {
    const { student, className } = await gameOfClass();
    signInAs(student, 'student');
    withFullscreenApi();
    vi.stubGlobal('WebSocket', StillConnecting);
    const { user } = await openApp('/dashboard/student');
    const overlay = await screen.findByRole('dialog', { name: 'Study mode: full screen' });
    await user.click(within(overlay).getByRole('link', { name: 'Join a live game' }));
    expect(await screen.findByRole('heading', { name: 'Join a live game' })).toBeInTheDocument();
    expect(screen.queryByTestId('study-mode-overlay')).toBeNull();
    const games = await screen.findByRole('region', { name: 'Live games' });
    await user.click(within(games).getByRole('link', { name: `Live game in ${className} Join` }));
    expect(await screen.findByText('Joining the game…')).toBeInTheDocument();
    expect(screen.queryByTestId('study-mode-overlay')).toBeNull();
    expect(screen.getByRole('link', { name: 'Leave' })).toBeVisible();
  });
});
