import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { STUDENT_LIST_LIMITS } from '#shared/students';
import { openApp } from '../../testing/open-app.tsx';
import { classRecordTaughtBy, registerStudent, signInAs, signUpTeacher } from '../../testing/server-actors.ts';

const STUDENTS_PATH = '/dashboard/teacher/students';

/** A teacher with a class of this test's own: the screen lists the students of the teacher's classes. */
async function teacherWithClass() {
  const teacher = await signUpTeacher();
  const { id, name } = await classRecordTaughtBy(teacher);
  return { teacher, className: name, classId: id };
}

let fetchSpy: MockInstance<typeof fetch>;
beforeEach(() => {
  fetchSpy = vi.spyOn(globalThis, 'fetch');
});
afterEach(() => {
  fetchSpy.mockRestore();
});

/** The queries of the students list requests sent since the spy was last cleared. */
const listRequests = () =>
  fetchSpy.mock.calls
    .map(([input]) => new URL(input instanceof Request ? input.url : String(input), location.href))
    .filter((url) => url.pathname === '/api/teacher/students')
    .map((url) => Object.fromEntries(url.searchParams));

const shownCount = (text: string) => screen.findByText(text, { selector: '[role="status"] p' });

async function openAsTeacher(teacher: { token: string }, path = STUDENTS_PATH) {
  signInAs(teacher, 'teacher');
  return openApp(path, { inAddressBar: true });
}

describe('the students list', () => {
  it('filters by the typed search once typing pauses, keeps it in the address and after a reload', async () => {
    const { teacher, className, classId } = await teacherWithClass();
    for (const name of ['Quilla Marsh', 'Quentin Marsh', 'Rosa Park'])
      await registerStudent({ class: className, teacher, name });
    const { user } = await openAsTeacher(teacher);

    await screen.findByRole('option', { name: className });
    await user.selectOptions(screen.getByLabelText('Class'), className);
    await shownCount('3 students shown');
    fetchSpy.mockClear();

    await user.type(screen.getByLabelText('Search'), 'Marsh');
    await shownCount('2 students shown');
    expect(screen.getAllByText('Quilla Marsh').length).toBeGreaterThan(0);
    expect(screen.queryByText('Rosa Park')).not.toBeInTheDocument();
    // One request for the whole word, none for the letters typed on the way.
    expect(listRequests()).toEqual([
      { classId, search: 'Marsh', limit: String(STUDENT_LIST_LIMITS.pageSizeDefault), offset: '0' },
    ]);
    // The class picked before the search stays beside it.
    expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({
      classId,
      search: 'Marsh',
    });

    cleanup(); // a reload: only the address is left
    await openApp(`${window.location.pathname}${window.location.search}`, { inAddressBar: true });
    await shownCount('2 students shown');
    expect(screen.getByLabelText('Search')).toHaveValue('Marsh');
    // The class names load on their own and may arrive after the list.
    await screen.findByRole('option', { name: className });
    expect(screen.getByLabelText('Class')).toHaveValue(classId);
  });

  it('loads the next page with Load more', async () => {
    const { teacher, className, classId } = await teacherWithClass();
    const pageSize = STUDENT_LIST_LIMITS.pageSizeDefault;
    for (let index = 0; index <= pageSize; index += 1) await registerStudent({ class: className, teacher });
    const { user } = await openAsTeacher(teacher, `${STUDENTS_PATH}?classId=${classId}`);

    await shownCount(`${pageSize} students shown; more below`);
    fetchSpy.mockClear();
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    await shownCount(`${pageSize + 1} students shown`);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(listRequests()).toEqual([{ classId, limit: String(pageSize), offset: String(pageSize) }]);
  });
});
