import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import {
  addCoTeacher,
  archiveClass,
  classRoster,
  createClass,
  removeClassTeacher,
  signInAs,
  signUpStudent,
  signUpTeacher,
  teacherProfile,
  joinClass,
} from '../../testing/server-actors.ts';

const CLASSES_PATH = '/dashboard/teacher/classes';

async function openClassAsOwner() {
  const teacher = await signUpTeacher();
  const created = await createClass(teacher, { subject: 'Physics' });
  signInAs(teacher, 'teacher');
  const app = await openApp(`${CLASSES_PATH}/${created._id}`);
  await screen.findByRole('heading', { level: 1, name: created.name });
  return { ...app, teacher, created };
}

const codeBox = () => screen.getByRole('textbox', { name: 'Join code' });

/** Confirms the question the page asked. */
async function confirm(user: Awaited<ReturnType<typeof openApp>>['user'], question: string | RegExp, answer: string) {
  const dialog = await screen.findByRole('alertdialog', { name: question });
  await user.click(within(dialog).getByRole('button', { name: answer }));
}

describe('the class page (decision 031, "Class screens")', () => {
  it('shows the code grouped, copies it with a visible "Copied", and rotates it after asking', async () => {
    const { user, created } = await openClassAsOwner();
    expect(created.joinCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(codeBox()).toHaveValue(created.joinCode);

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(created.joinCode);

    await user.click(screen.getByRole('button', { name: 'Rotate code' }));
    await confirm(user, 'Give the class a new code?', 'Rotate code');
    await waitFor(() => expect(codeBox()).not.toHaveValue(created.joinCode));
    const rotated = (codeBox() as HTMLInputElement).value;
    expect(rotated).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // The "Copied" was of the old code.
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();

    // The old code admits no one; the new one does.
    const student = await signUpStudent();
    await expect(joinClass(student, created.joinCode!)).rejects.toThrow(/CLASS_CODE_INVALID/);
    expect((await joinClass(student, rotated.toLowerCase())).map((entry) => entry._id)).toContain(created._id);
  });

  it('selects the code for copying by hand when the clipboard refuses', async () => {
    const { user, created } = await openClassAsOwner();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('Not allowed'));
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(/could not be copied: it is selected/)).toBeInTheDocument();
    const box = codeBox() as HTMLInputElement;
    await waitFor(() => expect(box).toHaveFocus());
    expect(box.value.slice(box.selectionStart ?? 0, box.selectionEnd ?? 0)).toBe(created.joinCode);
  });

  it('turns the code off after asking, and on again as a new code', async () => {
    const { user, created } = await openClassAsOwner();
    await user.click(screen.getByRole('button', { name: 'Turn off code' }));
    await confirm(user, 'Turn off the join code?', 'Turn off code');
    expect(await screen.findByText(/join code is turned off/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Join code' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect((codeBox() as HTMLInputElement).value).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/));
    expect(codeBox()).not.toHaveValue(created.joinCode);
  });

  it("says LAST_CLASS_TEACHER when the class's only teacher tries to leave it", async () => {
    const { user } = await openClassAsOwner();
    await user.click(screen.getByRole('button', { name: 'Leave class' }));
    await confirm(user, /^Leave /, 'Leave class');
    expect(await screen.findByRole('alert')).toHaveTextContent('A class needs a teacher');
    expect(screen.getByRole('button', { name: 'Leave class' })).toBeInTheDocument();
  });

  it('says FORBIDDEN when a removal is no longer the caller’s to make (they left the class elsewhere)', async () => {
    const { user, teacher, created } = await openClassAsOwner();
    const colleague = await signUpTeacher({ name: `A Colleague ${Date.now()}` });
    const colleagueId = (await teacherProfile(colleague))._id;
    await addCoTeacher(teacher, created._id, colleagueId);
    // The page does not know yet: the class was read before the co-teacher came.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const row = await screen.findByRole('rowheader', { name: colleague.registration.name });
    // In another tab, the owner leaves: the class is the colleague's now.
    await removeClassTeacher(teacher, created._id, (await teacherProfile(teacher))._id);

    await user.click(within(row.closest('tr')!).getByRole('button', { name: `Remove ${colleague.registration.name}` }));
    await confirm(user, /^Remove /, 'Remove teacher');
    expect(await screen.findByRole('alert')).toHaveTextContent('This is not open to you');
  });

  it('adds a co-teacher from the school’s active teachers who do not teach the class yet', async () => {
    const colleague = await signUpTeacher({ name: `A Picked ${Date.now()}` });
    const { user } = await openClassAsOwner();
    const picker = screen.getByRole('combobox', { name: 'Add a co-teacher' });
    await waitFor(() => expect(within(picker).getByRole('option', { name: colleague.registration.name })).toBeTruthy());
    await user.selectOptions(picker, colleague.registration.name);
    await user.click(screen.getByRole('button', { name: 'Add co-teacher' }));

    const table = await screen.findByRole('table', { name: /^Teachers of / });
    expect(await within(table).findByRole('rowheader', { name: colleague.registration.name })).toBeInTheDocument();
    // Now a teacher of the class: no longer a choice.
    expect(within(picker).queryByRole('option', { name: colleague.registration.name })).not.toBeInTheDocument();
  });
});

describe('moving a student (issue 19 point 7)', () => {
  it('moves a student of the roster into another active class of the teacher, in one step', async () => {
    const teacher = await signUpTeacher();
    const [created, target, archived] = [
      await createClass(teacher),
      await createClass(teacher, { name: `Target ${Date.now()}` }),
      await createClass(teacher),
    ];
    await archiveClass(teacher, archived._id);
    const student = await signUpStudent();
    await joinClass(student, created.joinCode!);
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`${CLASSES_PATH}/${created._id}`);
    const roster = await screen.findByRole('table', { name: `Students of ${created.name}` });

    await user.click(within(roster).getByRole('button', { name: `Move to class: ${student.registration.name}` }));
    const dialog = await screen.findByRole('dialog', { name: `Move ${student.registration.name} to another class` });
    const picker = within(dialog).getByRole('combobox', { name: /^Move to/ });
    // Only the teacher's other active classes are offered.
    await waitFor(() => expect(within(picker).getByRole('option', { name: target.name })).toBeTruthy());
    expect(within(picker).queryByRole('option', { name: created.name })).not.toBeInTheDocument();
    expect(within(picker).queryByRole('option', { name: archived.name })).not.toBeInTheDocument();
    await user.selectOptions(picker, target.name);
    await user.click(within(dialog).getByRole('button', { name: 'Move student' }));

    expect(await screen.findByText('No students yet')).toBeInTheDocument();
    expect((await classRoster(teacher, target._id)).map((entry) => entry.name)).toEqual([student.registration.name]);
    expect(await classRoster(teacher, created._id)).toEqual([]);
  });
});

describe('the classes page and the student’s classes', () => {
  it('shows CLASS_NAME_TAKEN at the name field of the new-class form', async () => {
    const teacher = await signUpTeacher();
    const taken = await createClass(teacher);
    signInAs(teacher, 'teacher');
    const { user } = await openApp(CLASSES_PATH);
    expect(await screen.findByRole('link', { name: new RegExp(taken.name) })).toHaveAttribute(
      'href',
      `${CLASSES_PATH}/${taken._id}`,
    );
    const name = screen.getByRole('textbox', { name: /^Class name/ });
    await user.type(name, taken.name.toLowerCase());
    await user.click(screen.getByRole('button', { name: 'Create class' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('The school already has a class with this name'));
    await waitFor(() => expect(name).toHaveFocus());
  });

  it('joins a class with a code typed any way; a wrong code is said at the field', async () => {
    const teacher = await signUpTeacher();
    const created = await createClass(teacher, { subject: 'Biology' });
    const student = await signUpStudent();
    signInAs(student, 'student');
    const { user } = await openApp('/dashboard/student/classes');
    const code = await screen.findByRole('textbox', { name: /^Class code/ });

    await user.type(code, 'ABCD-EFGH');
    await user.click(screen.getByRole('button', { name: 'Join class' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(/^This class code does not work/));
    await waitFor(() => expect(code).toHaveFocus());

    await user.clear(code);
    await user.type(code, created.joinCode!.replace('-', '').toLowerCase());
    await user.click(screen.getByRole('button', { name: 'Join class' }));
    expect(await screen.findByText(created.name)).toBeInTheDocument();
    expect(screen.getByText('Biology')).toBeInTheDocument();
  });
});
