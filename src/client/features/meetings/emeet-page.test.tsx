import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import {
  archiveClass,
  createClass,
  openMeetingRoom,
  signInAs,
  signUpStudent,
  signUpTeacher,
} from '../../testing/server-actors.ts';

/** EMeet (decision 035): rooms belong to a class; a new one is opened for a class chosen from a list. */
describe('the EMeet screen', () => {
  it('asks a teacher for one of their active classes, opens the room, and lists it under the class', async () => {
    const teacher = await signUpTeacher({ name: 'Grace Hopper' });
    const physics = await createClass(teacher, { subject: 'Physics' });
    const archived = await createClass(teacher);
    await archiveClass(teacher, archived._id);
    signInAs(teacher, 'teacher');
    const { user } = await openApp('/dashboard/teacher/emeet');
    expect(await screen.findByText('No room has been opened for your classes yet.')).toBeInTheDocument();

    const picker = await screen.findByRole('combobox', { name: /Class/ });
    const choices = within(picker)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(choices).toEqual(['Choose a class', `${physics.name} (Physics)`]);

    // No class chosen: said at the picker, and nothing is opened.
    await user.click(screen.getByRole('button', { name: 'Create a room' }));
    expect(await screen.findByText('Choose one of your classes')).toBeInTheDocument();
    expect(picker).toHaveFocus();
    expect(screen.queryByTestId('new-room-id')).not.toBeInTheDocument();

    await user.selectOptions(picker, physics._id);
    await user.click(screen.getByRole('button', { name: 'Create a room' }));
    const roomId = (await screen.findByTestId('new-room-id')).textContent;
    expect(roomId).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){4}$/);
    expect(screen.getByRole('button', { name: 'Join this room' })).toHaveFocus();

    const list = await screen.findByRole('list', { name: 'Rooms of your classes' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(list).toHaveTextContent(physics.name);
    expect(list).toHaveTextContent('Opened by Grace Hopper');
    expect(within(list).getByRole('button', { name: new RegExp(`Join the room of ${physics.name}`) })).toBeEnabled();
  });

  it('says when the teacher has no class to open a room for', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    await openApp('/dashboard/teacher/emeet');
    expect(await screen.findByText(/You do not teach a class yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create a room' })).not.toBeInTheDocument();
  });

  it("shows a student their classes' rooms, and a clear message for a room of another class", async () => {
    const teacher = await signUpTeacher({ name: 'Ada Lovelace' });
    const mine = await createClass(teacher);
    const other = await createClass(teacher);
    const room = await openMeetingRoom(teacher, mine._id);
    const foreign = await openMeetingRoom(teacher, other._id);
    const student = await signUpStudent({ classCode: mine.joinCode! });
    signInAs(student, 'student');
    const { user } = await openApp('/dashboard/student/emeet');

    const list = await screen.findByRole('list', { name: 'Rooms of your classes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list).toHaveTextContent(mine.name);
    expect(list).toHaveTextContent('Opened by Ada Lovelace');
    expect(list).not.toHaveTextContent(other.name);
    expect(screen.queryByRole('heading', { name: 'Start a new meeting' })).not.toBeInTheDocument();
    expect(room.roomId).not.toBe(foreign.roomId);

    await user.type(screen.getByRole('textbox', { name: /Room ID/ }), foreign.roomId);
    await user.click(screen.getByRole('button', { name: /^Join$/ }));
    expect(
      await screen.findByText('This room belongs to a class you are not in. Join a room of your own classes.'),
    ).toBeInTheDocument();
  });
});
