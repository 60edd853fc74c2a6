import { type Page } from '@playwright/test';
import { buildStudentRegistration } from '../../src/server/testing/factories.ts';
import { expect, expectAccessible } from './fixtures.ts';
import { invitedTeacher } from './school-setup.ts';
import { homeroomCode } from './api-setup.ts';

const homeroomCodeOf = (page: Page) => homeroomCode(page.request);

/** Named actors for the scenarios: each fills the real forms as a person would. */
/** Registers a new teacher through the link of a fresh invitation (decision 030). */
export async function registerTeacherThroughUi(page: Page) {
  const teacher = await invitedTeacher(page.request);
  await page.goto(`/auth/teacher/register?invitation=${teacher.invitation}`);
  await expectAccessible(page, 'teacher registration');
  await page.getByLabel('Full name').fill(teacher.name);
  await page.getByLabel('Subject').fill(teacher.subject);
  await page.getByLabel('Email').fill(teacher.email);
  await page.getByLabel('Password').fill(teacher.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/teacher\/login$/);
  await expect(page.getByRole('main').getByRole('status')).toContainText('Registration successful');
  return teacher;
}

export async function logInTeacherThroughUi(page: Page, teacher: { email: string; password: string }) {
  await page.goto('/auth/teacher/login');
  await expectAccessible(page, 'teacher login');
  await page.getByLabel('Email').fill(teacher.email);
  await page.getByLabel('Password').fill(teacher.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/teacher$/);
}

/**
 * Registers a new student with a class's code (typed, as given by the teacher); `isOnForm` when
 * the page already shows the form (reached by a link).
 */
export async function registerStudentThroughUi(page: Page, { classCode = '', isOnForm = false } = {}) {
  const student = buildStudentRegistration({ classCode: classCode || (await homeroomCodeOf(page)) });
  if (!isOnForm) await page.goto('/auth/student/register');
  await expectAccessible(page, 'student registration');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(student.name);
  await page.getByLabel('Account username').fill(student.rollNumber);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(student.email);
  await page.getByLabel('Class code').fill(student.classCode);
  await page.getByLabel('Parent name').fill(student.parentName);
  await page.getByLabel('Parent email').fill(student.parentEmail);
  await page.getByLabel('Password').fill(student.password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/student\/login$/);
  return student;
}

export async function logInStudentThroughUi(page: Page, student: { rollNumber: string; password: string }) {
  await page.goto('/auth/student/login');
  await expectAccessible(page, 'student login');
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill(student.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await enterStudyMode(page);
}

/**
 * The student dashboard opens blocked until full screen (SPEC §4 study mode):
 * press f as a student would, and wait for the overlay to go. A page load
 * (goto, reload) leaves full screen, so call it again after one.
 */
export async function enterStudyMode(page: Page) {
  const overlay = page.getByTestId('study-mode-overlay');
  await expect(overlay).toBeVisible();
  await page.keyboard.press('f');
  await expect(overlay).toBeHidden();
}

/** The student's side menu, then the quiz's card: Take quiz, or Resume while it runs. */
export async function openQuizFromMenu(page: Page, title: string) {
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Quiz' }).click();
  await page.getByRole('link', { name: new RegExp(`^(Take quiz|Resume \\(\\d+:\\d\\d left\\))\\W+${title}$`) }).click();
}

/** The question on screen in a running attempt or preview. */
export const currentQuestion = async (page: Page) => (await page.getByTestId('question-text').textContent()) ?? '';
