import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import {
  classRecordTaughtBy,
  createAssignmentFor,
  gradeAndReturn,
  handInAs,
  signInAs,
  signUpStudent,
  signUpTeacher,
  studentProfile,
  teacherClasses,
} from '../../testing/server-actors.ts';

const DAY = 86_400_000;

/** A class with Ada (graded 8/10, returned) and Ben (nothing handed in, past due). */
async function gradedClass() {
  const teacher = await signUpTeacher();
  const klass = await classRecordTaughtBy(teacher);
  const joinCode = (await teacherClasses(teacher)).find((entry) => entry._id === klass.id)!.joinCode!;
  const ada = await signUpStudent({ classCode: joinCode, name: 'Ada Lovelace' });
  const ben = await signUpStudent({ classCode: joinCode, name: 'Ben Okri' });
  const homework = (
    await createAssignmentFor(teacher, [klass.id], {
      title: 'Essay one',
      dueAt: new Date(Date.now() - DAY).toISOString(),
    })
  )._id;
  await createAssignmentFor(teacher, [klass.id], { title: 'Reading log', points: null, dueAt: null });
  await handInAs(ada, homework, 'My work');
  await gradeAndReturn(teacher, homework, (await studentProfile(ada))._id, 8, 'Clear and well argued');
  return { teacher, klass, ada, ben };
}

const rowNames = () =>
  screen
    .getAllByRole('rowheader')
    .map((cell) => cell.querySelector('span')?.textContent ?? '')
    .filter(Boolean);

describe('the teacher’s gradebook (decision 062)', () => {
  it('shows students × items with averages, filters missing work and sorts through the server', async () => {
    const { teacher, klass } = await gradedClass();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${klass.id}/gradebook`, { inAddressBar: true });
    await screen.findByRole('heading', { level: 1, name: `Gradebook of ${klass.name}` });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: /Essay one/ })).toBeInTheDocument();
    expect(rowNames()).toEqual(['Ada Lovelace', 'Ben Okri']);
    const adaRow = within(table).getByRole('row', { name: /Ada Lovelace/ });
    expect(within(adaRow).getByText('80%')).toBeInTheDocument();
    expect(within(adaRow).getByText('8')).toBeInTheDocument();
    const benRow = within(table).getByRole('row', { name: /Ben Okri/ });
    expect(within(benRow).getByText('Missing')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Only students with missing work' }));
    await waitFor(() => expect(rowNames()).toEqual(['Ben Okri']));
    expect(window.location.search).toContain('missing=true');
    await user.click(screen.getByRole('checkbox', { name: 'Only students with missing work' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'desc');
    await waitFor(() => expect(rowNames()).toEqual(['Ben Okri', 'Ada Lovelace']));
  });

  it('downloads the whole class as a CSV in the reader’s words, with a BOM', async () => {
    const { teacher, klass } = await gradedClass();
    signInAs(teacher, 'teacher');
    const { user } = await openApp(`/dashboard/teacher/classes/${klass.id}/gradebook`);
    await screen.findByRole('table');
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:gradebook')),
      revokeObjectURL: vi.fn(),
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).toBe('Name,Roll number,Average (%),Missing,Essay one (10),Reading log');
    expect(lines[1]).toMatch(/^Ada Lovelace,[^,]+,80,0,8,Not handed in$/);
    expect(lines[2]).toMatch(/^Ben Okri,[^,]+,,1,Missing,Not handed in$/);
  });
});

describe('the student’s grades', () => {
  it('shows their own scores with the feedback, and nobody else’s', async () => {
    const { ada } = await gradedClass();
    signInAs(ada, 'student');
    await openApp('/dashboard/student/grades');
    await screen.findByRole('heading', { level: 1, name: 'Grades' });
    const row = await screen.findByRole('row', { name: /Essay one/ });
    expect(within(row).getByText('Clear and well argued')).toBeInTheDocument();
    expect(within(row).getByText('8 / 10')).toBeInTheDocument();
    expect(screen.getByText('80%')).toBeInTheDocument();
    expect(screen.queryByText('Ben Okri')).not.toBeInTheDocument();
  });
});
