import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getLeaderboard } from '#shared/contract/progress';
import { listResources } from '#shared/contract/resources';
import { STUDENT_LIST_LIMITS } from '#shared/students';
import { FILTER_DEBOUNCE_MS, readUrlFilters } from './url-filters.ts';
import { LEADERBOARD_FILTERS } from '../features/leaderboard/leaderboard-queries.ts';
import { STUDENT_RESOURCE_FILTERS, TEACHER_RESOURCE_FILTERS } from '../features/resources/resource-filters.ts';
import { openApp } from '../testing/open-app.tsx';
import {
  classRecordTaughtBy,
  classTaughtBy,
  registerStudent,
  signInAs,
  signUpTeacher,
  type Actor,
} from '../testing/server-actors.ts';

// The filters through a real screen that has a class select and a search box.
const STUDENTS_PATH = '/dashboard/teacher/students';

const addressFilters = () => Object.fromEntries(new URLSearchParams(window.location.search));
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

async function openStudents(path = STUDENTS_PATH, teacher?: Actor) {
  signInAs(teacher ?? (await signUpTeacher()), 'teacher');
  return openApp(path, { inAddressBar: true });
}

describe('useUrlFilters', () => {
  it('shows the address in the box when the address changes elsewhere, and does not write the old text back', async () => {
    const { user } = await openStudents();

    await user.type(await screen.findByLabelText('Search'), 'Marsh');
    await waitFor(() => expect(addressFilters()).toEqual({ search: 'Marsh' }));

    // The side menu's "Students": the same screen at its plain address.
    await user.click(screen.getByRole('link', { name: 'Students' }));
    await waitFor(() => expect(window.location.search).toBe(''));
    await pause(FILTER_DEBOUNCE_MS + 100);

    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(window.location.search).toBe('');
  });

  it('keeps what is typed after its own write reaches the address', async () => {
    const { user } = await openStudents();
    const box = await screen.findByLabelText('Search');

    await user.type(box, 'Mar');
    await waitFor(() => expect(addressFilters()).toEqual({ search: 'Mar' }));
    await user.type(box, 'sh');

    expect(box).toHaveValue('Marsh');
    await waitFor(() => expect(addressFilters()).toEqual({ search: 'Marsh' }));
    expect(box).toHaveValue('Marsh');
  });

  it('keeps a class picked while a search was waiting to be sent', async () => {
    // The screen lists the students of the teacher's own classes (issue 19 point 8).
    const teacher = await signUpTeacher();
    const klass = await classRecordTaughtBy(teacher);
    await registerStudent({ class: klass.name, teacher });
    await openStudents(STUDENTS_PATH, teacher);
    await screen.findByRole('option', { name: klass.name });

    // In one go, so the class is picked well before the search's pause ends.
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'Marsh' } });
    fireEvent.change(screen.getByLabelText('Class'), { target: { value: klass.id } });
    expect(addressFilters()).toEqual({ classId: klass.id });
    await pause(FILTER_DEBOUNCE_MS + 100);

    expect(addressFilters()).toEqual({ classId: klass.id, search: 'Marsh' });
    expect(screen.getByLabelText('Class')).toHaveValue(klass.id);
    expect(screen.getByLabelText('Search')).toHaveValue('Marsh');
  });

  it('reads a search the server would refuse as no search: the list, not a failure', async () => {
    const tooLong = 'M'.repeat(STUDENT_LIST_LIMITS.search + 1);
    const teacher = await signUpTeacher();
    await registerStudent({ class: await classTaughtBy(teacher), teacher });
    await openStudents(`${STUDENTS_PATH}?search=${tooLong}&classId=A%01`, teacher);

    expect(await screen.findByText(/students? shown/, { selector: '[role="status"] p' })).toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(screen.getByLabelText('Class')).toHaveValue('');
  });
});

describe('textFilter', () => {
  // Whatever the address says, the filters are a query the list's endpoint accepts.
  const badText = ['x'.repeat(1_000), 'Marsh\u0007', 'a\u0000b'];
  const screens = [
    { filters: LEADERBOARD_FILTERS, endpoint: getLeaderboard, names: ['classId', 'search'] },
    { filters: STUDENT_RESOURCE_FILTERS, endpoint: listResources, names: ['search', 'subject'] },
    { filters: TEACHER_RESOURCE_FILTERS, endpoint: listResources, names: ['search'] },
  ];

  it.each(screens)('reads a value its endpoint refuses as the default ($names)', ({ filters, endpoint, names }) => {
    for (const name of names)
      for (const value of badText) {
        const read = readUrlFilters(filters, new URLSearchParams({ [name]: value })) as Record<string, string>;
        expect(read[name]).toBe('');
        expect(endpoint.query.safeParse({ [name]: read[name] }).success).toBe(true);
      }
  });

  it('keeps a good value, trimmed', () => {
    expect(readUrlFilters(LEADERBOARD_FILTERS, new URLSearchParams({ search: '  Marsh ' })).search).toBe('Marsh');
  });
});
