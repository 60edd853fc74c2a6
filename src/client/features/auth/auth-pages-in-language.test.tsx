import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import { chooseLanguageOf, signInAs, signUpTeacher } from '../../testing/server-actors.ts';

const LOGIN_PATH = '/auth/student/login';

/** The switcher's cookie, as a visitor who chose a language before would send it. */
const chooseInCookie = (locale: string) => {
  document.cookie = `studyhall_locale=${locale}; Path=/`;
};

afterEach(() => {
  document.cookie = 'studyhall_locale=; Max-Age=0; Path=/';
});

describe('the auth pages in the visitor’s language (issue 32, decision 054)', () => {
  it('shows the student login in Arabic, right to left, from the cookie', async () => {
    chooseInCookie('ar');
    await openApp(LOGIN_PATH);
    expect(await screen.findByRole('heading', { name: 'دخول الطلاب' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'اسم المستخدم' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'تسجيل الدخول' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'اللغة' })).toHaveValue('ar');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.body).not.toHaveTextContent('Student login');
  });

  it('keeps codes, usernames, emails and passwords left to right in Arabic (decision 055)', async () => {
    chooseInCookie('ar');
    await openApp(LOGIN_PATH);
    // A roll number typed as "BGKH-" must not show as "-BGKH".
    expect(await screen.findByRole('textbox', { name: 'اسم المستخدم' })).toHaveAttribute('dir', 'ltr');
    expect(screen.getByLabelText(/^كلمة المرور/)).toHaveAttribute('dir', 'ltr');
    // The page's own words stay right to left.
    expect(screen.getByRole('heading', { name: 'دخول الطلاب' }).closest('[dir]')).toBe(document.documentElement);

    await openApp('/auth/student/register');
    // The login's heading may still be on screen: wait for the register page's own field.
    expect(await screen.findByRole('textbox', { name: /^رمز الصف/ })).toHaveAttribute('dir', 'ltr');
    const textbox = (name: RegExp) => screen.getByRole('textbox', { name });
    expect(textbox(/^اسم المستخدم للحساب/)).toHaveAttribute('dir', 'ltr');
    expect(screen.getAllByRole('textbox').filter((box) => box.getAttribute('type') === 'email')).not.toHaveLength(0);
    for (const box of screen.getAllByRole('textbox').filter((box) => box.getAttribute('type') === 'email')) {
      expect(box).toHaveAttribute('dir', 'ltr');
    }
    // A name is written in the page's language.
    expect(textbox(/^الاسم/)).not.toHaveAttribute('dir');

    await openApp('/auth/teacher/register');
    expect(await screen.findByRole('textbox', { name: /^رمز الدعوة/ })).toHaveAttribute('dir', 'ltr');
  });

  it('shows the student login in Spanish, left to right', async () => {
    chooseInCookie('es');
    await openApp(LOGIN_PATH);
    expect(await screen.findByRole('heading', { name: 'Acceso de estudiantes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'es');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('switches language without a reload, and keeps the choice in the cookie', async () => {
    const { user } = await openApp(LOGIN_PATH);
    expect(await screen.findByRole('heading', { name: 'Student login' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'العربية');
    expect(await screen.findByRole('heading', { name: 'دخول الطلاب' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.cookie).toContain('studyhall_locale=ar');

    await user.selectOptions(screen.getByRole('combobox', { name: 'اللغة' }), 'English');
    expect(await screen.findByRole('heading', { name: 'Student login' })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'en'));
  });

  it('shows the first run in Arabic, right to left, as the page says', async () => {
    chooseInCookie('ar');
    await openApp('/setup');
    // The school of the test server is set up: the screen says so (the form, on a first run).
    const heading = await screen.findByRole('heading', { level: 1, name: /^(مدرستك مُعدّة|أعدّ مدرستك)$/ });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(heading.closest('[dir]')).toBe(document.documentElement);
    expect(heading.closest('[lang]')).toBe(document.documentElement);
  });

  it('lays the dashboard out right to left in Arabic, its menu in Arabic', async () => {
    chooseInCookie('ar');
    signInAs(await signUpTeacher(), 'teacher');
    await openApp('/dashboard/teacher');
    const menu = await screen.findByRole('navigation', { name: 'قائمة المعلّم' });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    // Nothing in between says otherwise: the page's direction and language are the screen's.
    expect(menu.closest('[dir]')).toBe(document.documentElement);
    expect(menu.closest('[lang]')).toBe(document.documentElement);
  });

  it("shows a person's own language, kept on their account, on a browser that never chose it", async () => {
    const teacher = await signUpTeacher();
    await chooseLanguageOf(teacher, 'teacher', 'es');
    signInAs(teacher, 'teacher');
    await openApp('/dashboard/teacher');
    expect(await screen.findByRole('navigation', { name: 'Menú del docente' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'es');
    // This browser keeps it for its signed-out pages too.
    expect(document.cookie).toContain('studyhall_locale=es');
  });
});
