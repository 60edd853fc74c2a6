import { screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import { logInStudent, signInAs, signUpStudent, studentAfterReset } from '../../testing/server-actors.ts';

/** A student whose teacher reset the password, signed in with the temporary one, opening `path`: the forced screen shows. */
async function openAfterReset(path: string) {
  const student = await signUpStudent();
  const { temporaryPassword, token } = await studentAfterReset(student);
  signInAs({ token }, 'student');
  const opened = await openApp(path);
  expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
  return { student, temporaryPassword, ...opened };
}

/** Fills the screen's three fields and saves. */
async function choosePassword(user: UserEvent, temporaryPassword: string) {
  await user.type(screen.getByLabelText(/^Temporary password/), temporaryPassword);
  await user.type(screen.getByLabelText(/^New password/), 'my own passphrase');
  await user.type(screen.getByLabelText(/^Confirm new password/), 'my own passphrase');
  await user.click(screen.getByRole('button', { name: 'Save my new password' }));
}

describe('choosing a new password after a teacher’s reset (decision 033)', () => {
  it('keeps the student on the screen until a new password is chosen, then opens the dashboard', async () => {
    // The dashboard leads to the forced screen (any other address too: below).
    const { student, temporaryPassword, user, router } = await openAfterReset('/dashboard/student');
    expect(router.state.location.pathname).toBe('/dashboard/student/choose-password');
    expect(screen.queryByRole('navigation', { name: 'Student menu' })).not.toBeInTheDocument();

    // A wrong temporary password shows at its field and keeps the student here.
    await choosePassword(user, 'not-the-one');
    await waitFor(() =>
      expect(screen.getByLabelText(/^Temporary password/)).toHaveAccessibleDescription(/current password/i),
    );

    await user.clear(screen.getByLabelText(/^Temporary password/));
    await user.type(screen.getByLabelText(/^Temporary password/), temporaryPassword);
    await user.click(screen.getByRole('button', { name: 'Save my new password' }));
    expect(await screen.findByRole('heading', { name: `Welcome, ${student.registration.name}` })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/student');
    expect(await logInStudent(student.registration.rollNumber, 'my own passphrase')).toEqual(expect.any(String));
  });

  it('takes the student on to the address they were going to once the new password is saved', async () => {
    // A link followed after the reset (a meeting's, a quiz's): the forced screen comes first.
    const { temporaryPassword, user, router } = await openAfterReset('/dashboard/student/statistics?subject=Science');
    await choosePassword(user, temporaryPassword);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/student/statistics'));
    expect(router.state.location.search).toBe('?subject=Science');
  });

  it('goes on only to an address of the student dashboard, never one outside the app', async () => {
    const student = await signUpStudent();
    signInAs(student, 'student');
    const { router } = await openApp('/dashboard/student/classes');
    await screen.findByRole('heading', { name: 'My classes' });
    await router.navigate('/dashboard/student/choose-password', { state: { returnTo: '//evil.example/steal' } });
    expect(await screen.findByRole('heading', { name: `Welcome, ${student.registration.name}` })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/student');
  });

  it('leads an open dashboard there when a call is refused with PASSWORD_CHANGE_REQUIRED', async () => {
    const student = await signUpStudent();
    signInAs(student, 'student');
    const { router } = await openApp('/dashboard/student');
    await screen.findByRole('heading', { name: `Welcome, ${student.registration.name}` });
    // Meanwhile the teacher resets the password and another tab signs in with the temporary one:
    // this tab's profile (cached) still says nothing, the stored token is the new session's.
    const { token } = await studentAfterReset(student);
    signInAs({ token }, 'student');
    await router.navigate('/dashboard/student/statistics');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/student/choose-password');
  });

  it('sends a student without a pending reset from the screen to the dashboard', async () => {
    const student = await signUpStudent();
    signInAs(student, 'student');
    const { router } = await openApp('/dashboard/student/choose-password');
    expect(await screen.findByRole('heading', { name: `Welcome, ${student.registration.name}` })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/student');
  });
});
