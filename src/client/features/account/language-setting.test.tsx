import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SCIENCE_TEACHER_EMAIL } from '#shared/demo';
import { openApp } from '../../testing/open-app.tsx';
import { signInAs, signUpStudent, signUpTeacher, teacherProfile } from '../../testing/server-actors.ts';

const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;

afterEach(() => {
  delete (navigator as { languages?: unknown }).languages;
  Object.defineProperty(Navigator.prototype, 'languages', languages);
});

describe('the account’s language setting (issue 32, decision 055 addendum)', () => {
  it('keeps on the account the language a visitor chose before signing in, and shows it chosen', async () => {
    // The switcher's cookie, not marked the account's: a visitor's choice on the sign-in page.
    document.cookie = 'studyhall_locale=ar; Path=/';
    const teacher = await signUpTeacher();
    signInAs(teacher, 'teacher');
    await openApp('/dashboard/teacher/account');
    const setting = await screen.findByRole('combobox', { name: 'لغة الواجهة' });
    await waitFor(() => expect(setting).toHaveValue('ar'));
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    // Kept on the server: another device shows it.
    expect((await teacherProfile(teacher)).locale).toBe('ar');
  });

  it('leaves a shared demo account’s language alone: the next visitor must not inherit it', async () => {
    document.cookie = 'studyhall_locale=ar; Path=/';
    const demoTeacher = await signUpTeacher({ email: DEMO_SCIENCE_TEACHER_EMAIL });
    signInAs(demoTeacher, 'teacher');
    await openApp('/dashboard/teacher/account');
    // This visitor still reads their choice…
    await screen.findByRole('combobox', { name: 'لغة الواجهة' });
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    // …but the shared account keeps "Automatic".
    expect((await teacherProfile(demoTeacher)).locale).toBeNull();
  });

  it('names the school’s language as what "Automatic" gives, not the browser’s', async () => {
    // The test school's language is English; this browser asks for Spanish.
    Object.defineProperty(navigator, 'languages', { value: ['es-ES', 'es'], configurable: true });
    signInAs(await signUpStudent(), 'student');
    await openApp('/dashboard/student/account');
    const setting = await screen.findByRole('combobox', { name: 'Language of the interface' });
    expect(setting).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Automatic (English)' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'en');
  });
});
