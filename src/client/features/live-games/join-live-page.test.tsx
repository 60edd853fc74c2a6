import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { openApp } from '../../testing/open-app.tsx';
import { renderTranslated as render } from '../../testing/render-translated.tsx';
import {
  addQuiz,
  openLiveGame,
  signInAs,
  signUpStudent,
  signUpTeacher,
  teacherClasses,
} from '../../testing/server-actors.ts';
import { PinForm } from './join-live-page.tsx';

/** Issue 34: a student joins a live game by its PIN, from the dashboard, the PIN page or /live. */

/** A socket that never opens. */
class StillConnecting extends EventTarget {
  static readonly OPEN = 1;
  readonly readyState = 0;
  send() {}
  close() {}
}

/** A class name of this test's own: class names are unique in the school. */
const newClassName = () => `Live ${Math.random().toString(36).slice(2, 8)}`;

/** A teacher's game in the lobby with a class of theirs, and a student of that class signed in here. */
async function gameWithStudent() {
  const teacher = await signUpTeacher();
  const className = newClassName();
  const quiz = await addQuiz(teacher, { class: className });
  const student = await signUpStudent({ class: className, teacher });
  const classId = (await teacherClasses(teacher)).find((taught) => taught.name === className)!._id;
  const game = await openLiveGame(teacher, quiz._id, classId);
  signInAs(student, 'student');
  return { teacher, student, game, className };
}

describe('joining a live game by its PIN', () => {
  it('says a PIN of no game of the student’s classes is unknown, without telling more', async () => {
    const { game } = await gameWithStudent();
    // Another class's student: the game's PIN is no game of theirs.
    signInAs(await signUpStudent({ class: newClassName() }), 'student');
    const { user, router } = await openApp('/dashboard/student/live');
    const pin = await screen.findByLabelText(/^Game PIN/);
    expect(pin).toHaveAttribute('inputmode', 'numeric');
    expect(pin).toHaveAttribute('autocomplete', 'off');

    await user.type(pin, game.pin);
    await user.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() =>
      expect(pin).toHaveAccessibleDescription('No game of your classes has this PIN. Check it and try again.'),
    );
    expect(router.state.location.pathname).toBe('/dashboard/student/live');
  });

  it('shows the game on the student’s dashboard, whose Join opens it', async () => {
    const { game, className } = await gameWithStudent();
    await openApp('/dashboard/student');
    const banner = await screen.findByRole('link', { name: `Live game in ${className} Join` });
    expect(banner).toHaveAttribute('href', `/dashboard/student/live/${game._id}`);
  });

  it('takes the short address’s PIN to the game', async () => {
    const { game } = await gameWithStudent();
    // The game's socket is not this test's subject: it stays connecting.
    vi.stubGlobal('WebSocket', StillConnecting);
    try {
      const { router } = await openApp(`/live?pin=${game.pin}`);
      await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboard/student/live/${game._id}`));
      expect(await screen.findByText('Joining the game…')).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends a signed-out visitor of /live to the student login, which returns to the PIN', async () => {
    const { router } = await openApp('/live?pin=123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/student/login'));
    expect(router.state.location.state).toEqual({ returnTo: '/dashboard/student/live?pin=123456' });
  });

  it('sends a teacher opening /live to their dashboard', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    const { router } = await openApp('/live?pin=123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/teacher'));
  });
});

describe('the PIN form', () => {
  it('checks the PIN’s digits before asking, and words NOT_FOUND', async () => {
    const user = userEvent.setup();
    const findGame = vi.fn().mockRejectedValue(new ApiError('NOT_FOUND'));
    const onFound = vi.fn();
    render(<PinForm initialPin="" findGame={findGame} onFound={onFound} />);
    const pin = screen.getByLabelText(/^Game PIN/);

    await user.type(pin, '12345');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(pin).toHaveAccessibleDescription('A game PIN is 6 digits.');
    expect(findGame).not.toHaveBeenCalled();

    await user.type(pin, '6');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() =>
      expect(pin).toHaveAccessibleDescription('No game of your classes has this PIN. Check it and try again.'),
    );
    expect(findGame).toHaveBeenCalledExactlyOnceWith('123456');
    expect(onFound).not.toHaveBeenCalled();
  });
});
