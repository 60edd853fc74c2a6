import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FILTER_DEBOUNCE_MS } from './url-filters.ts';
import { openApp } from '../testing/open-app.tsx';
import { registerStudent, signInAs, signUpTeacher } from '../testing/server-actors.ts';

// The filters through a real screen that has a class select and a search box.
const STUDENTS_PATH = '/dashboard/teacher/students';

const addressFilters = () => Object.fromEntries(new URLSearchParams(window.location.search));
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

async function openStudents(path = STUDENTS_PATH) {
  const teacher = await signUpTeacher();
  signInAs(teacher, 'teacher');
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
    const className = `C${Math.random().toString(36).slice(2, 9)}`;
    await registerStudent({ class: className });
    await openStudents();
    await screen.findByRole('option', { name: className });

    // In one go, so the class is picked well before the search's pause ends.
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'Marsh' } });
    fireEvent.change(screen.getByLabelText('Class'), { target: { value: className } });
    expect(addressFilters()).toEqual({ class: className });
    await pause(FILTER_DEBOUNCE_MS + 100);

    expect(addressFilters()).toEqual({ class: className, search: 'Marsh' });
    expect(screen.getByLabelText('Class')).toHaveValue(className);
    expect(screen.getByLabelText('Search')).toHaveValue('Marsh');
  });
});
