import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import {
  addCoTeacher,
  assignmentAsTeacher,
  createAssignmentFor,
  createClass,
  gradeAndReturn,
  gradeFirstHandIn,
  handInAs,
  retitleAssignment,
  shareVideoLink,
  signInAs,
  signUpStudent,
  signUpTeacher,
  studentProfile,
  takeBackAs,
  teacherProfile,
} from '../../testing/server-actors.ts';

async function teacherWithAssignment(points: number | null = 10) {
  const teacher = await signUpTeacher();
  const created = await createClass(teacher);
  const assignment = await createAssignmentFor(teacher, [created._id], {
    title: 'Essay on rivers',
    points,
    dueAt: null,
  });
  const student = await signUpStudent({ classCode: created.joinCode! });
  signInAs(teacher, 'teacher');
  return { teacher, created, assignment, student };
}

type User = Awaited<ReturnType<typeof openApp>>['user'];

/** The picker's Done, then the editor's Save changes. */
async function closePickerAndSave(user: User, dialog: ReturnType<typeof within>) {
  await user.click(dialog.getByRole('button', { name: 'Done' }));
  await user.click(screen.getByRole('button', { name: 'Save changes' }));
}

/** The attachments the server holds for the assignment, by name, once the save is in. */
async function expectAttachments(teacher: { token: string }, id: string, names: string[]) {
  await waitFor(async () => {
    const saved = await assignmentAsTeacher(teacher, id);
    expect(saved.attachments.map((attachment) => attachment.fileName)).toEqual(names);
  });
}

describe('the teacher’s assignment screens (decision 063)', () => {
  it('after another editor’s save, reloads the latest version and keeps the teacher’s writing', async () => {
    const { teacher, assignment } = await teacherWithAssignment();
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}/edit`);
    const instructions = await screen.findByRole('textbox', { name: 'Instructions' });
    await user.type(instructions, 'Read pages 4 to 9.');
    await retitleAssignment(teacher, assignment._id, 'Essay on lakes');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Someone else saved this assignment after you opened it.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reload the latest version' }));
    expect(await screen.findByText(/The latest version is loaded/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Instructions' })).toHaveValue('Read pages 4 to 9.');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Essay on rivers');

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Essay on rivers' })).toBeInTheDocument();
  });

  it('locks the points, the publish time and the classes it has once work was handed in', async () => {
    const { assignment, student, created } = await teacherWithAssignment();
    await handInAs(student, assignment._id, 'My essay');
    await openApp(`/dashboard/teacher/assignments/${assignment._id}/edit`);
    expect(await screen.findByRole('note')).toHaveTextContent(/Students have handed in work/);
    expect(screen.getByRole('textbox', { name: 'Points' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Publish later' })).toBeDisabled();
    expect(await screen.findByRole('checkbox', { name: created.name })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeEnabled();
  });

  it('grades a hand-in, and says so when the student took it back meanwhile', async () => {
    const { assignment, student } = await teacherWithAssignment();
    const handedIn = await handInAs(student, assignment._id, 'First <i>try</i>');
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}`);
    const students = await screen.findByRole('list', { name: 'Students' });
    const row = await within(students).findByRole('button', { name: new RegExp(student.registration.name) });
    expect(row).toHaveTextContent('Handed in');
    await user.click(row);
    // The student's text is text: their tags are shown, never made into markup.
    expect(await screen.findByText('First <i>try</i>')).toBeInTheDocument();

    // Taken back and handed in again: another version than the one on screen.
    const takenBack = await takeBackAs(student, assignment._id, handedIn.handIn!.version);
    await handInAs(student, assignment._id, 'Second try', takenBack.handIn!.version);
    await user.type(screen.getByRole('textbox', { name: 'Points' }), '8.5');
    await user.type(screen.getByRole('textbox', { name: 'Feedback for the student' }), 'Clear.');
    await user.click(screen.getByRole('button', { name: 'Save grade' }));
    expect(await screen.findByText(/This hand-in changed since you opened it/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Feedback for the student' })).toHaveValue('Clear.');
  });

  it('grades and returns a hand-in of an ungraded assignment with feedback only', async () => {
    const { assignment, student } = await teacherWithAssignment(null);
    await handInAs(student, assignment._id, 'Done');
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}`);
    const students = await screen.findByRole('list', { name: 'Students' });
    await user.click(await within(students).findByRole('button', { name: new RegExp(student.registration.name) }));
    expect(await screen.findByText('Ungraded assignment: feedback only.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Points' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Feedback for the student' }), 'Well done.');
    await user.click(screen.getByRole('button', { name: 'Save grade' }));
    await user.click(await screen.findByRole('button', { name: 'Return to the student' }));
    await waitFor(() =>
      expect(within(students).getByRole('button', { name: new RegExp(student.registration.name) })).toHaveTextContent(
        'Returned',
      ),
    );
  });

  it('uploads a new file from the picker into the class’s library and attaches it; a refused file says why', async () => {
    const { teacher, assignment } = await teacherWithAssignment();
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Attach from library' }));
    const dialog = within(await screen.findByRole('dialog'));
    const fileInput = await dialog.findByLabelText('Upload a new file');

    await user.upload(fileInput, new File([''], 'empty.txt', { type: 'text/plain' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('The selected file is empty.');

    await user.upload(fileInput, new File(['Read chapter two.'], 'reading-notes.txt', { type: 'text/plain' }));
    expect(
      await dialog.findByRole('button', { name: 'reading-notes.txt is attached' }, { timeout: 10_000 }),
    ).toBeDisabled();
    await closePickerAndSave(user, dialog);
    await expectAttachments(teacher, assignment._id, ['reading-notes.txt']);
  });

  it('offers a co-teacher’s file from the class’s library, not from the teacher’s own uploads', async () => {
    const { teacher, created, assignment } = await teacherWithAssignment();
    const coTeacher = await signUpTeacher({ name: 'Layla Haddad' });
    await addCoTeacher(teacher, created._id, (await teacherProfile(coTeacher))._id);
    await shareVideoLink(coTeacher, created._id, 'Rivers of the world');
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Attach from library' }));
    const dialog = within(await screen.findByRole('dialog'));

    expect(await dialog.findByText('Nothing found in your library.')).toBeVisible();
    await user.selectOptions(dialog.getByLabelText('Show'), `Library of ${created.name}`);
    expect(await dialog.findByText(/^Shared by \u2068Layla Haddad\u2069$/)).toBeVisible();
    await user.click(dialog.getByRole('button', { name: 'Attach Rivers of the world' }));
    await closePickerAndSave(user, dialog);
    await expectAttachments(teacher, assignment._id, ['Rivers of the world']);
  });

  it('duplicates a past-due assignment without its past due time, into the class chosen', async () => {
    const teacher = await signUpTeacher();
    const first = await createClass(teacher);
    const second = await createClass(teacher);
    const pastDue = new Date(Date.now() - 86_400_000).toISOString();
    const assignment = await createAssignmentFor(teacher, [first._id], { title: 'Map of the Nile', dueAt: pastDue });
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}`);
    await user.click(await screen.findByRole('button', { name: /Duplicate/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Duplicate the assignment' }));
    // A past due time would make the copy missing at once: the field starts empty.
    expect(dialog.getByLabelText(/^Due/)).toHaveValue('');
    await user.click(dialog.getByRole('checkbox', { name: second.name }));
    await user.click(dialog.getByRole('button', { name: 'Duplicate' }));
    // The copy's page: its own title, no due date, the class chosen.
    expect(await screen.findByRole('heading', { level: 1, name: 'Map of the Nile (copy)' })).toBeVisible();
    expect(screen.getByText('No due date')).toBeVisible();
    expect(screen.getAllByText(second.name).length).toBeGreaterThan(0);
  });

  it('keeps the late mark on graded and returned work, and counts one student in the singular', async () => {
    const teacher = await signUpTeacher();
    const created = await createClass(teacher);
    const pastDue = new Date(Date.now() - 3_600_000).toISOString();
    const assignment = await createAssignmentFor(teacher, [created._id], {
      title: 'Late essay',
      dueAt: pastDue,
      acceptLate: true,
    });
    const returned = await signUpStudent({ classCode: created.joinCode!, name: 'Amira Returned' });
    const graded = await signUpStudent({ classCode: created.joinCode!, name: 'Bruno Graded' });
    for (const student of [returned, graded]) await handInAs(student, assignment._id, 'Sorry it is late');
    await gradeAndReturn(teacher, assignment._id, (await studentProfile(returned))._id, 7, 'Good');
    await gradeFirstHandIn(teacher, assignment._id, (await studentProfile(graded))._id, 6, 'Fine');
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/assignments/${assignment._id}`);
    const students = await screen.findByRole('list', { name: 'Students' });
    const returnedRow = await within(students).findByRole('button', { name: /Amira Returned/ });
    const gradedRow = within(students).getByRole('button', { name: /Bruno Graded/ });
    expect(within(returnedRow).getByText('Returned')).toBeVisible();
    expect(within(returnedRow).getByText('Late')).toBeVisible();
    expect(within(gradedRow).getByText('Graded')).toBeVisible();
    expect(within(gradedRow).getByText('Late')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Return all graded' }));
    expect(
      await screen.findByText(
        'One student will see their points and feedback. You can still change a grade afterwards.',
      ),
    ).toBeVisible();
  });
});
