import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// Node's socket, as the session's tests use: jsdom's events are not the ones Node's own WebSocket dispatches.
import { WebSocket as NodeWebSocket } from 'ws';
import { CLASS_BOARD_PROTOCOL_VERSION, CLASS_BOARD_SOCKET_PATH } from '#shared/class-boards';
import { getClassBoardPen, issueClassBoardToken, setClassBoardPen } from '#shared/contract/class-boards';
import { urlOf } from '../../lib/api.ts';
import { openApp } from '../../testing/open-app.tsx';
import {
  classCodeOf,
  signInAs,
  signUpStudent,
  signUpTeacher,
  studentProfile,
  teacherClasses,
} from '../../testing/server-actors.ts';
import { callJson } from '../../../server/testing/server-process.ts';

/**
 * The class board's screens (issue 35) on the component tests' real server, its socket included:
 * the pen handed from the roster, the note of a student without it, the question before a page is
 * cleared. Painting and the files of the export: board-export.test.tsx.
 */

async function aClassWithAStudent() {
  const teacher = await signUpTeacher();
  const className = `Board ${Math.random().toString(36).slice(2, 8)}`;
  await classCodeOf(className, teacher);
  const student = await signUpStudent({ class: className, teacher });
  const classId = (await teacherClasses(teacher)).find((taught) => taught.name === className)!._id;
  const { _id: studentId, name: studentName } = await studentProfile(student);
  return { teacher, student, classId, studentId, studentName };
}

async function penOf(teacher: { token: string }, classId: string) {
  const answer = await callJson(location.origin, 'GET', urlOf(getClassBoardPen, { params: { classId } }), {
    token: teacher.token,
  });
  return (answer.body as { data: { mode: string; studentIds: string[] } }).data;
}

/** The same person joins the board from elsewhere (another tab): the page open here is the one replaced. */
async function joinFromElsewhere(person: { token: string }, classId: string) {
  const ticket = await callJson(location.origin, 'POST', urlOf(issueClassBoardToken, { params: { classId } }), {
    token: person.token,
  });
  const { token } = (ticket.body as { data: { token: string } }).data;
  const socket = new NodeWebSocket(
    `${location.origin.replace(/^http/, 'ws')}${CLASS_BOARD_SOCKET_PATH}?token=${encodeURIComponent(token)}`,
  );
  socket.on('open', () => socket.send(JSON.stringify({ type: 'join', protocolVersion: CLASS_BOARD_PROTOCOL_VERSION })));
  return socket;
}

beforeEach(() => {
  vi.stubGlobal('WebSocket', NodeWebSocket);
  // jsdom paints nothing (and says so on every canvas): the page shows, the drawing does not.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the class board', () => {
  it('lets a teacher hand the pen to a student of the roster', async () => {
    const { teacher, classId, studentId, studentName } = await aClassWithAStudent();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${classId}/board`);
    await user.click(await screen.findByRole('button', { name: 'Who draws' }));
    const panel = await screen.findByRole('region', { name: 'Who draws' });
    expect(within(panel).getByRole('radio', { name: 'Teachers only' })).toBeChecked();
    const toggle = await within(panel).findByRole('switch', { name: `Hand the pen to ${studentName}` });
    expect(toggle).not.toBeChecked();
    // Nobody of the class has the board open: the roster says so, and marks nobody.
    expect(within(panel).getByText('No student is on the board now.')).toBeInTheDocument();
    expect(within(panel).queryByText('On the board')).toBeNull();
    await user.click(toggle);
    await waitFor(async () =>
      expect(await penOf(teacher, classId)).toEqual({ classId, mode: 'named', studentIds: [studentId] }),
    );
    await waitFor(() => expect(within(panel).getByRole('radio', { name: /students chosen below/ })).toBeChecked());
    expect(within(panel).getByRole('switch', { name: `Hand the pen to ${studentName}` })).toBeChecked();
  });

  it('tells a student without the pen that only teachers draw, with no drawing tools', async () => {
    const { student, classId } = await aClassWithAStudent();
    signInAs(student, 'student');
    await openApp(`/dashboard/student/classes/${classId}/board`);
    expect(
      await screen.findByText('Only the teachers can draw; ask your teacher for the pen.', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Draw' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear page' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Board as PDF' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Who draws' })).toBeNull();
  });

  it('tells a student politely when the pen is handed to them and taken back, not when the board opens', async () => {
    const { teacher, student, classId, studentId } = await aClassWithAStudent();
    signInAs(student, 'student');
    await openApp(`/dashboard/student/classes/${classId}/board`);
    await screen.findByText('Only the teachers can draw; ask your teacher for the pen.', {}, { timeout: 15_000 });
    const said = () => screen.getAllByRole('status').map((status) => status.textContent ?? '');
    // The line of the connection and saving is shown, not read out at every stroke and arrival.
    const line = await screen.findByText(/^(Saved|Saving…|Connecting…)/);
    expect(line.closest('[role="status"]')).toBeNull();
    expect(said().join('')).not.toMatch(/pen/);
    const hand = (studentIds: string[]) =>
      callJson(location.origin, 'PUT', urlOf(setClassBoardPen, { params: { classId } }), {
        token: teacher.token,
        body: { mode: 'named', studentIds },
      });
    await hand([studentId]);
    await waitFor(() => expect(said()).toContain('You hold the pen now: you can draw.'), { timeout: 10_000 });
    await hand([]);
    await waitFor(() => expect(said()).toContain('You no longer hold the pen: the board is read only.'), {
      timeout: 10_000,
    });
  });

  it('asks before clearing a page, and says undo brings it back', async () => {
    const { teacher, classId } = await aClassWithAStudent();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${classId}/board`);
    await user.click(await screen.findByRole('button', { name: 'Add page' }, { timeout: 15_000 }));
    expect(await screen.findByRole('button', { name: /Page 1/, current: 'page' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear page' }));
    const question = await screen.findByRole('alertdialog', { name: 'Clear the page “Page 1”?' });
    expect(question).toHaveTextContent('Undo brings them back.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Clear page' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Clear page' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('asks before deleting a page', async () => {
    const { teacher, classId } = await aClassWithAStudent();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${classId}/board`);
    const add = await screen.findByRole('button', { name: 'Add page' }, { timeout: 15_000 });
    await user.click(add);
    await user.click(add);
    expect(await screen.findByRole('button', { name: /Page 2/, current: 'page' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete page' }));
    const question = await screen.findByRole('alertdialog', { name: 'Delete the page “Page 2”?' });
    await user.click(within(question).getByRole('button', { name: 'Delete page' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Page 2/ })).toBeNull());
    expect(screen.getByRole('button', { name: /Page 1/, current: 'page' })).toBeInTheDocument();
  });
});

describe('a closed board', () => {
  it('says why in words: opened in another tab, it is read only here', async () => {
    const { student, classId } = await aClassWithAStudent();
    signInAs(student, 'student');
    await openApp(`/dashboard/student/classes/${classId}/board`);
    await screen.findByText('Only the teachers can draw; ask your teacher for the pen.', {}, { timeout: 15_000 });
    const elsewhere = await joinFromElsewhere(student, classId);
    try {
      // Shown on the status line, and said once in the polite announcement.
      const said = await screen.findAllByText(
        'You opened this board in another tab: it is read only here.',
        {},
        { timeout: 10_000 },
      );
      expect(said.map((element) => element.getAttribute('role'))).toEqual([null, 'status']);
    } finally {
      elsewhere.close();
    }
  });
});

describe('a board outside your classes', () => {
  it('says the class is not one of yours, though the board began to open while the list loaded', async () => {
    const { classId } = await aClassWithAStudent();
    const stranger = await signUpTeacher();
    signInAs(stranger, 'teacher');
    await openApp(`/dashboard/teacher/classes/${classId}/board`);
    expect(await screen.findByText('This class is not one of yours', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add page' })).toBeNull();
  });
});

describe('the teacher’s controls', () => {
  it('puts focus in the name field when a page is renamed', async () => {
    const { teacher, classId } = await aClassWithAStudent();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${classId}/board`);
    await user.click(await screen.findByRole('button', { name: 'Add page' }, { timeout: 15_000 }));
    await user.click(await screen.findByRole('button', { name: 'Rename page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename page' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Page name' })).toHaveFocus());
  });

  it('says who draws when the teacher keeps the pen until students are chosen, and hides it once the board is closed here', async () => {
    const { teacher, classId } = await aClassWithAStudent();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${classId}/board`);
    await user.click(await screen.findByRole('button', { name: 'Who draws' }, { timeout: 15_000 }));
    const panel = await screen.findByRole('region', { name: 'Who draws' });
    await user.click(within(panel).getByRole('radio', { name: /students chosen below/ }));
    expect(await screen.findByText('Only teachers can draw until you choose students below.')).toBeInTheDocument();
    const elsewhere = await joinFromElsewhere(teacher, classId);
    try {
      // Shown on the status line, and announced.
      await screen.findAllByText(
        'You opened this board in another tab: it is read only here.',
        {},
        { timeout: 10_000 },
      );
      expect(screen.queryByRole('button', { name: 'Who draws' })).toBeNull();
      expect(screen.queryByRole('region', { name: 'Who draws' })).toBeNull();
    } finally {
      elsewhere.close();
    }
  });
});
