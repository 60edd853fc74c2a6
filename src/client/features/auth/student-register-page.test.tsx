import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildStudentRegistration } from '../../../server/testing/factories.ts';
import { openApp } from '../../testing/open-app.tsx';
import { signUpStudent } from '../../testing/server-actors.ts';

const REGISTER_PATH = '/auth/student/register';

/** The registration form filled in as a person would, field by field. */
async function fillIn(
  user: Awaited<ReturnType<typeof openApp>>['user'],
  values: ReturnType<typeof buildStudentRegistration>,
) {
  const textboxes: [string, string][] = [
    ['Name', values.name],
    ['Account username', values.rollNumber],
    ['Email', values.email],
    ['Class', values.class],
    ['Parent name', values.parentName],
    ['Parent email', values.parentEmail],
  ];
  for (const [name, value] of textboxes) await user.type(screen.getByRole('textbox', { name }), value);
  await user.type(screen.getByLabelText(/^Password/), values.password);
}

describe('student registration (on the form layer)', () => {
  it('marks the missing fields and focuses the first', async () => {
    const { user } = await openApp(REGISTER_PATH);
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
      'Email must be a valid email address',
    );
  });

  it('shows the server’s refusal of a taken username under that field, with the focus', async () => {
    const { registration: taken } = await signUpStudent();
    const { user } = await openApp(REGISTER_PATH);
    await screen.findByRole('textbox', { name: 'Name' });
    await fillIn(user, buildStudentRegistration({ rollNumber: taken.rollNumber }));
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const username = screen.getByRole('textbox', { name: 'Account username' });
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    expect(username).toHaveAccessibleDescription('This account username is already taken');
    expect(username).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
    expect(screen.getByRole('heading', { name: 'Create a student account' })).toBeInTheDocument();
  });
});
