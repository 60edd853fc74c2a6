import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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
    ['Class code', values.classCode],
    ['Parent name', values.parentName],
    ['Parent email', values.parentEmail],
  ];
  for (const [name, value] of textboxes) await user.type(screen.getByRole('textbox', { name }), value);
  await user.type(screen.getByLabelText(/^Password/), values.password);
}

/** Registers a new student under a username another student has; answers that field once refused. */
async function registerTakenUsername() {
  const { registration: taken } = await signUpStudent();
  const { user } = await openApp(REGISTER_PATH);
  await screen.findByRole('textbox', { name: 'Name' });
  await fillIn(user, buildStudentRegistration({ rollNumber: taken.rollNumber, classCode: taken.classCode }));
  await user.click(screen.getByRole('button', { name: 'Register' }));
  const username = screen.getByRole('textbox', { name: 'Account username' });
  await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
  return username;
}

describe('student registration (on the form layer)', () => {
  it('asks for the class code, prefilled from the link, and shows a wrong one on its field', async () => {
    const { user } = await openApp(`${REGISTER_PATH}?code=zzzz-zzzz`);
    const code = await screen.findByRole('textbox', { name: 'Class code' });
    expect(code).toHaveValue('zzzz-zzzz');
    expect(code).toHaveAccessibleDescription('From your teacher, e.g. ABCD-EFGH.');
    await user.clear(code);
    await fillIn(user, buildStudentRegistration({ classCode: 'ZZZZ-ZZZZ' }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(
      'This class code does not work. Check it with your teacher: it may have been changed or turned off.',
    );
    // The form moves the focus after it renders the error, a frame later on a busy machine.
    await waitFor(() => expect(code).toHaveFocus());
  });

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
    const username = await registerTakenUsername();
    expect(username).toHaveAccessibleDescription('This account username is already taken');
    await waitFor(() => expect(username).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
    expect(screen.getByRole('heading', { name: 'Create a student account' })).toBeInTheDocument();
  });

  it('says the refusal in the client’s words, whatever the server’s message says (issue 18, point 2)', async () => {
    // A stand-in between the page and the real server rewrites every failure's wording.
    const serverFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const answer = await serverFetch(input, init);
      if (answer.ok) return answer;
      const body = (await answer.json()) as { message: string; errors?: { field: string; message: string }[] };
      const reworded = {
        ...body,
        message: 'Reworded by the server',
        errors: body.errors?.map(({ field }) => ({ field, message: 'Reworded by the server' })),
      };
      return new Response(JSON.stringify(reworded), { status: answer.status, headers: answer.headers });
    });
    try {
      const username = await registerTakenUsername();
      expect(username).toHaveAccessibleDescription('This account username is already taken');
      expect(spy).toHaveBeenCalled();
      expect(document.body).not.toHaveTextContent('Reworded by the server');
    } finally {
      spy.mockRestore();
    }
  });
});
