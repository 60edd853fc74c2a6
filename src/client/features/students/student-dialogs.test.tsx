import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import {
  classTaughtBy,
  logInStudent,
  registerStudent,
  signInAs,
  signUpTeacher,
  type Actor,
} from '../../testing/server-actors.ts';

/** A teacher with a class of this test's own: the students screen lists the students of the teacher's classes. */
async function teacherWithClass() {
  const teacher = await signUpTeacher();
  return { teacher, className: await classTaughtBy(teacher) };
}

/** The students screen of the teacher, filtered to the class. */
async function openClassAsTeacher(teacher: Actor, className: string) {
  signInAs(teacher, 'teacher');
  return openApp(`/dashboard/teacher/students?class=${encodeURIComponent(className)}`, { inAddressBar: true });
}

describe('managing a student from the students screen (decision 033)', () => {
  it('edits the details in a dialog; a taken account username shows at its field', async () => {
    const { teacher, className } = await teacherWithClass();
    const student = await registerStudent({ class: className, teacher, name: 'Nadia Edit' });
    const holder = await registerStudent({ class: `M${Math.random().toString(36).slice(2, 9)}` });
    const { user } = await openClassAsTeacher(teacher, className);

    await user.click((await screen.findAllByRole('button', { name: 'Edit Nadia Edit' }))[0]!);
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Nadia Edit' }));
    const username = dialog.getByRole('textbox', { name: /Account username/ });
    expect(username).toHaveValue(student.rollNumber);

    await user.clear(username);
    await user.type(username, holder.rollNumber);
    await user.click(dialog.getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(username).toHaveAccessibleDescription(/taken/));
    await waitFor(() => expect(username).toHaveFocus());

    await user.clear(username);
    await user.type(username, `${student.rollNumber}-new`);
    const name = dialog.getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Nadia Edited');
    await user.click(dialog.getByRole('button', { name: 'Save details' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect((await screen.findAllByText('Nadia Edited')).length).toBeGreaterThan(0);
    expect(screen.getAllByText(`${student.rollNumber}-new`).length).toBeGreaterThan(0);
    expect(await logInStudent(`${student.rollNumber}-new`, student.password)).toEqual(expect.any(String));
  });

  it('asks first, then shows the temporary password once with a copy button', async () => {
    const { teacher, className } = await teacherWithClass();
    const student = await registerStudent({ class: className, teacher, name: 'Omar Reset' });
    const { user } = await openClassAsTeacher(teacher, className);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    await user.click((await screen.findAllByRole('button', { name: 'Reset password: Omar Reset' }))[0]!);
    const question = await screen.findByRole('alertdialog', { name: "Reset Omar Reset's password?" });
    // The safe answer has the focus; Cancel changes nothing.
    expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Reset password' }));

    const shown = within(await screen.findByRole('dialog', { name: "Omar Reset's temporary password" }));
    const password = shown.getByRole('textbox', { name: 'Temporary password' });
    expect((password as HTMLInputElement).value).toMatch(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/);
    expect(shown.getByText(/shown only once/)).toBeInTheDocument();
    await user.click(shown.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith((password as HTMLInputElement).value);

    // The old password no longer opens the account; the temporary one does.
    await expect(logInStudent(student.rollNumber, student.password)).rejects.toThrow(/401/);
    expect(await logInStudent(student.rollNumber, (password as HTMLInputElement).value)).toEqual(expect.any(String));

    await user.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The focus is back on the button that started it.
    expect(document.activeElement).toHaveAccessibleName('Reset password: Omar Reset');
  });

  it('changes nothing when the question is cancelled', async () => {
    const { teacher, className } = await teacherWithClass();
    const student = await registerStudent({ class: className, teacher, name: 'Pia Keep' });
    const { user } = await openClassAsTeacher(teacher, className);
    await user.click((await screen.findAllByRole('button', { name: 'Reset password: Pia Keep' }))[0]!);
    const question = await screen.findByRole('alertdialog');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await logInStudent(student.rollNumber, student.password)).toEqual(expect.any(String));
  });
});
