import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import { logInStudent, signInAs, signUpStudent, studentAfterReset } from '../../testing/server-actors.ts';

describe('choosing a new password after a teacher’s reset (decision 033)', () => {
  it('keeps the student on the screen until a new password is chosen, then opens the dashboard', async () => {
    const student = await signUpStudent();
    const { temporaryPassword, token } = await studentAfterReset(student);
    signInAs({ token }, 'student');
    // Any dashboard address leads to the forced screen.
    const { user, router } = await openApp('/dashboard/student/quiz');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/student/choose-password');
    expect(screen.queryByRole('navigation', { name: 'Student menu' })).not.toBeInTheDocument();

    // A wrong temporary password shows at its field and keeps the student here.
    await user.type(screen.getByLabelText(/^Temporary password/), 'not-the-one');
    await user.type(screen.getByLabelText(/^New password/), 'my own passphrase');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'my own passphrase');
    await user.click(screen.getByRole('button', { name: 'Save my new password' }));
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
