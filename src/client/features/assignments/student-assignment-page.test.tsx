import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NewAssignmentInput } from '#shared/assignments';
import { openApp } from '../../testing/open-app.tsx';
import {
  assignmentAsStudent,
  createAssignmentFor,
  createClass,
  saveDraftElsewhere,
  signInAs,
  signUpStudent,
  signUpTeacher,
  studentProfile,
} from '../../testing/server-actors.ts';
import { writeDraftCopy } from './student-draft-copy.ts';

/** A teacher's class with one assignment, and a student of it signed in here. */
async function studentWithAssignment(overrides: Partial<NewAssignmentInput> = {}) {
  const teacher = await signUpTeacher();
  const klass = await createClass(teacher);
  const assignment = await createAssignmentFor(teacher, [klass._id], overrides);
  const student = await signUpStudent({ classCode: klass.joinCode! });
  signInAs(student, 'student');
  const { _id: studentId } = await studentProfile(student);
  return { teacher, klass, assignment, student, studentId, path: `/dashboard/student/assignments/${assignment._id}` };
}

const answerBox = () => screen.findByRole('textbox', { name: 'Your answer' });
const draftStatus = () => screen.getByTestId('draft-status');

describe('the student’s assignments', () => {
  it('lists an assignment due later under To do and a past-due one under Missing', async () => {
    const { teacher, klass, assignment } = await studentWithAssignment({ title: 'Essay on rivers' });
    await createAssignmentFor(teacher, [klass._id], {
      title: 'Map of Europe',
      dueAt: new Date(Date.now() - 3600_000).toISOString(),
    });
    await openApp('/dashboard/student/assignments');

    const todo = await screen.findByRole('region', { name: 'To do' });
    const missing = screen.getByRole('region', { name: 'Missing' });
    expect(await within(todo).findByRole('link', { name: /Essay on rivers/ })).toHaveAttribute(
      'href',
      `/dashboard/student/assignments/${assignment._id}`,
    );
    expect(await within(missing).findByRole('link', { name: /Map of Europe/ })).toBeInTheDocument();
    expect(within(todo).queryByText(/Map of Europe/)).toBeNull();
    expect(await within(screen.getByRole('region', { name: 'Done' })).findByText(/Nothing handed in/)).toBeVisible();
  });

  it('counts to do and missing on the dashboard', async () => {
    const { teacher, klass } = await studentWithAssignment({ title: 'Essay on rivers' });
    await createAssignmentFor(teacher, [klass._id], { dueAt: new Date(Date.now() - 3600_000).toISOString() });
    await openApp('/dashboard/student');

    expect(await screen.findByTestId('assignments-counts')).toHaveTextContent('1 to do · 1 missing');
    expect(screen.getByRole('link', { name: /Essay on rivers/ })).toBeInTheDocument();
  });
});

describe('the hand-in editor', () => {
  it('saves the draft as the student types, and shows it again after a reload', async () => {
    const { assignment, student, path } = await studentWithAssignment();
    const { user } = await openApp(path);
    await user.type(await answerBox(), 'Rivers run to the sea.');

    await waitFor(() => expect(draftStatus()).toHaveTextContent('Saved'));
    expect((await assignmentAsStudent(student, assignment._id)).handIn).toMatchObject({
      state: 'draft',
      text: 'Rivers run to the sea.',
    });

    cleanup();
    dropDraftCopies(); // another device: only the server's draft
    await openApp(path);
    expect(await answerBox()).toHaveValue('Rivers run to the sea.');
  });

  it('shows both texts when another tab saved first, and keeps the one the student chooses', async () => {
    const { assignment, student, path } = await studentWithAssignment();
    await saveDraftElsewhere(student, assignment._id, 'First words', 0);
    const { user } = await openApp(path);
    const box = await answerBox();
    expect(box).toHaveValue('First words');
    // The other tab saves again: this page still holds version 1.
    await saveDraftElsewhere(student, assignment._id, 'The other tab’s text', 1);

    await user.type(box, ' and mine');

    const choice = await screen.findByRole('alert');
    expect(within(choice).getByRole('textbox', { name: 'Your text on this page' })).toHaveValue('First words and mine');
    expect(within(choice).getByRole('textbox', { name: 'The text saved elsewhere' })).toHaveValue(
      'The other tab’s text',
    );
    // Nothing was overwritten while the student had not chosen.
    expect((await assignmentAsStudent(student, assignment._id)).handIn?.text).toBe('The other tab’s text');

    await user.click(within(choice).getByRole('button', { name: 'Keep the text on this page' }));
    await waitFor(() => expect(draftStatus()).toHaveTextContent('Saved'));
    expect(await answerBox()).toHaveValue('First words and mine');
    expect((await assignmentAsStudent(student, assignment._id)).handIn).toMatchObject({
      text: 'First words and mine',
      version: 3,
    });
  });

  it('takes the saved text when the student chooses it', async () => {
    const { assignment, student, path } = await studentWithAssignment();
    const { user } = await openApp(path);
    const box = await answerBox();
    await saveDraftElsewhere(student, assignment._id, 'Written on the phone', 0);

    await user.type(box, 'Written here');
    const choice = await screen.findByRole('alert');
    await user.click(within(choice).getByRole('button', { name: 'Keep the saved text' }));

    expect(await answerBox()).toHaveValue('Written on the phone');
    expect((await assignmentAsStudent(student, assignment._id)).handIn?.text).toBe('Written on the phone');
  });

  it('sends a text kept on this device that the server never received', async () => {
    const { assignment, student, studentId, path } = await studentWithAssignment();
    const { version } = await saveDraftElsewhere(student, assignment._id, 'Saved part', 0).then(
      (saved) => saved.handIn!,
    );
    // Typed offline on the version the server still holds: newer than the server's.
    writeDraftCopy(studentId, assignment._id, { text: 'Saved part, and typed offline', baseVersion: version });

    await openApp(path);

    expect(await answerBox()).toHaveValue('Saved part, and typed offline');
    await waitFor(async () =>
      expect((await assignmentAsStudent(student, assignment._id)).handIn?.text).toBe('Saved part, and typed offline'),
    );
    await waitFor(() => expect(draftStatus()).toHaveTextContent('Saved'));
    // Acknowledged: the local copy is gone.
    expect(draftCopyKeys()).toEqual([]);
  });

  it('asks before replacing a server draft that changed since the local copy was typed', async () => {
    const { assignment, student, studentId, path } = await studentWithAssignment();
    await saveDraftElsewhere(student, assignment._id, 'Old', 0);
    writeDraftCopy(studentId, assignment._id, { text: 'Old, typed offline', baseVersion: 1 });
    await saveDraftElsewhere(student, assignment._id, 'Changed on the laptop', 1);

    const { user } = await openApp(path);

    const choice = await screen.findByRole('alert');
    expect(within(choice).getByRole('textbox', { name: 'Your text on this page' })).toHaveValue('Old, typed offline');
    expect(within(choice).getByRole('textbox', { name: 'The text saved elsewhere' })).toHaveValue(
      'Changed on the laptop',
    );
    expect((await assignmentAsStudent(student, assignment._id)).handIn?.text).toBe('Changed on the laptop');
    await user.click(within(choice).getByRole('button', { name: 'Keep the text on this page' }));
    await waitFor(async () =>
      expect((await assignmentAsStudent(student, assignment._id)).handIn?.text).toBe('Old, typed offline'),
    );
  });

  it('hands in after a confirmation, takes back, and hands in again', async () => {
    const { assignment, student, path } = await studentWithAssignment();
    const { user } = await openApp(path);
    await user.type(await answerBox(), 'My answer');
    await user.click(screen.getByRole('button', { name: 'Hand in' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Hand in your work?' });
    await user.click(within(dialog).getByRole('button', { name: 'Hand in' }));

    expect(await screen.findByText(/^Handed in /)).toBeInTheDocument();
    expect(screen.getByText('My answer')).toBeInTheDocument();
    expect((await assignmentAsStudent(student, assignment._id)).handIn).toMatchObject({
      state: 'handed-in',
      text: 'My answer',
      late: false,
    });

    await user.click(screen.getByRole('button', { name: 'Take back' }));
    expect(await answerBox()).toHaveValue('My answer');
    expect((await assignmentAsStudent(student, assignment._id)).handIn?.state).toBe('draft');
    await user.type(await answerBox(), ', improved');
    await user.click(screen.getByRole('button', { name: 'Hand in' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Hand in' }));
    expect(await screen.findByText('My answer, improved')).toBeInTheDocument();
    expect((await assignmentAsStudent(student, assignment._id)).handIn).toMatchObject({
      state: 'handed-in',
      text: 'My answer, improved',
    });
  });

  it('says why work past due with late work refused cannot be handed in', async () => {
    const { path } = await studentWithAssignment({
      dueAt: new Date(Date.now() - 3600_000).toISOString(),
      acceptLate: false,
    });
    await openApp(path);

    expect(
      await screen.findByText(/late work is not accepted: this assignment can no longer be handed in/),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Hand in' })).toBeDisabled();
  });
});

const draftCopyKeys = () => Object.keys(localStorage).filter((key) => key.startsWith('studyhall:hand-in:'));

function dropDraftCopies() {
  for (const key of draftCopyKeys()) localStorage.removeItem(key);
}
