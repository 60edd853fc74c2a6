import { mkdirSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { chooseOwnLanguage, registeredStudent, teacherWithClass } from './api-setup.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const SCREENSHOT_DIR = 'docs/screenshots';
const DAY = 86_400_000;

async function ok(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown, token: string) {
  const answer = await request[method](url, { data, headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()).data;
}

/**
 * The class gradebook (issue 33 point 4, decision 062) at both sizes, in English and Arabic:
 * a graded and returned assignment, missing work, the student column, axe-core on each.
 */
test('a teacher reads the class gradebook, in English and in Arabic', async ({ page }, testInfo) => {
  const { teacher, token, klass } = await teacherWithClass(page.request);
  const students = [];
  for (const name of ['Ada Lovelace', 'Ben Okri', 'Chiamaka Obi']) {
    const registration = await registeredStudent(page.request, { classCode: klass.joinCode });
    const studentToken = (await ok(
      page.request,
      'post',
      '/api/student/login',
      { rollNumber: registration.rollNumber, password: registration.password },
      '',
    )) as string;
    students.push({ name, registration, token: studentToken });
  }
  const assignment = async (title: string, points: number | null, dueAt: Date | null) =>
    (
      (await ok(
        page.request,
        'post',
        '/api/assignments',
        {
          classIds: [klass.id],
          title,
          instructions: '',
          points,
          dueAt: dueAt?.toISOString() ?? null,
          acceptLate: true,
        },
        token,
      )) as { _id: string }
    )._id;
  const essay = await assignment('Essay on the water cycle', 10, new Date(Date.now() - 2 * DAY));
  const lab = await assignment('Lab report', 20, new Date(Date.now() - DAY));
  await assignment('Reading log', null, new Date(Date.now() + 3 * DAY));
  for (const [index, student] of students.entries()) {
    if (index === 2) continue;
    await ok(
      page.request,
      'post',
      `/api/student/assignments/${essay}/hand-in`,
      { text: 'Work', version: 0 },
      student.token,
    );
  }
  await ok(
    page.request,
    'post',
    `/api/student/assignments/${lab}/hand-in`,
    { text: 'Work', version: 0 },
    students[0]!.token,
  );
  const profileOf = async (studentToken: string) =>
    (
      (await (
        await page.request.post('/api/student/get-student-by-id', {
          headers: { authorization: `Bearer ${studentToken}` },
        })
      ).json()) as { data: { _id: string } }
    ).data._id;
  const grade = async (id: string, studentToken: string, points: number) => {
    const studentId = await profileOf(studentToken);
    await ok(
      page.request,
      'put',
      `/api/assignments/${id}/hand-ins/${studentId}/grade`,
      { points, feedback: 'Good', version: 1 },
      token,
    );
    await ok(page.request, 'post', `/api/assignments/${id}/hand-ins/${studentId}/return`, {}, token);
  };
  await grade(essay, students[0]!.token, 9);
  await grade(essay, students[1]!.token, 6.5);

  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/classes/${klass.id}`);
  await page.getByRole('link', { name: 'Gradebook' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Gradebook of ${klass.name}` })).toBeVisible();
  await expect(page.getByText('90%')).toBeVisible();
  await expectAccessible(page, 'gradebook');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/gradebook-en-${testInfo.project.name}.png`, fullPage: true });

  await chooseOwnLanguage(page, 'ar');
  await page.reload();
  await expect(page.locator('html[dir="rtl"][lang="ar"]')).toBeAttached();
  await expect(page.getByRole('heading', { level: 1, name: `سجل درجات ${klass.name}` })).toBeVisible();
  await expectAccessible(page, 'gradebook in Arabic');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/gradebook-ar-${testInfo.project.name}.png`, fullPage: true });
});
