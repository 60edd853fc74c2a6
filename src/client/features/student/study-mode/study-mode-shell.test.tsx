import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clearSession } from '../../../lib/session.ts';
import { openApp } from '../../../testing/open-app.tsx';
import { signInAs, signUpStudent } from '../../../testing/server-actors.ts';

/** Whether leaving the page now would ask first (the shell's beforeunload handler cancels the event). */
const leavingAsks = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe('the study shell’s question before leaving', () => {
  it('asks while the student is signed in, and not once the session is cleared, before the shell unmounts', async () => {
    const student = await signUpStudent();
    signInAs(student, 'student');
    await openApp('/dashboard/student');
    expect(await screen.findByRole('heading', { name: `Welcome, ${student.registration.name}` })).toBeInTheDocument();
    expect(leavingAsks()).toBe(true);

    // Logging out clears the session first and unmounts the dashboard after: a reload in between.
    clearSession();
    expect(leavingAsks()).toBe(false);
  });
});
