import { TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import type { Browser, BrowserContext } from '@playwright/test';
import { CLOSE_MESSAGES } from '../../src/shared/meetings.ts';
import { logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { clusterSettings, startCluster } from './app-instances.ts';
import { expect, test } from './fixtures.ts';
import { expectVideoFlowing, joinRoomFromEmeet } from './meeting-actors.ts';
import { patience } from '../../src/server/testing/patience.ts';

/**
 * Issue 7, scale-out: two app instances share PostgreSQL and Redis. A teacher on
 * one and a student on the other still meet; the room-size limit (2 here) holds
 * across instances; and when the student's instance restarts, their page
 * reconnects by itself and the video flows again.
 */
const settings = clusterSettings();
const FIRST_PORT = Number(process.env.E2E_CLUSTER_PORT ?? 3250);

test.skip(!settings && !process.env.CI, 'needs E2E_CLUSTER_DATABASE_URL and E2E_CLUSTER_REDIS_URL (set by .ci/run)');

async function contextOn(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
}

test('two instances on PostgreSQL and Redis: people on each meet, the limit holds, a restart reconnects', async ({
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run is enough: the cluster is the subject, not the screen size');
  test.setTimeout(patience(180_000));
  expect(settings, 'CI must set E2E_CLUSTER_DATABASE_URL and E2E_CLUSTER_REDIS_URL').toBeDefined();
  const cluster = await startCluster(settings!, {
    count: 2,
    firstPort: FIRST_PORT,
    env: { MEETING_ROOM_SIZE: '2', SETUP_CODE: TEST_SETUP_CODE },
  });
  const [instanceA, instanceB] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]];
  const contexts: BrowserContext[] = [];
  try {
    // The teacher on instance A opens a room and joins it.
    const teacherContext = await contextOn(browser, instanceA.baseUrl);
    contexts.push(teacherContext);
    const { teacher, klass } = await teacherWithClass(teacherContext.request);
    const teacherPage = await teacherContext.newPage();
    await logInTeacherThroughUi(teacherPage, teacher);
    await teacherPage.goto('/dashboard/teacher/emeet');
    await teacherPage.getByRole('combobox', { name: /Class/ }).selectOption({ label: klass.name });
    await teacherPage.getByRole('button', { name: 'Create a room' }).click();
    const roomId = (await teacherPage.getByTestId('new-room-id').textContent())!;
    await teacherPage.getByRole('button', { name: 'Join this room' }).click();
    await teacherPage.getByRole('button', { name: 'Join meeting' }).click();
    await expect(teacherPage.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();

    // The student of the class on instance B (registered there: the database is shared).
    const studentContext = await contextOn(browser, instanceB.baseUrl);
    contexts.push(studentContext);
    const student = await registeredStudent(studentContext.request, { classCode: klass.joinCode });
    const studentPage = await studentContext.newPage();
    await logInStudentThroughUi(studentPage, student);
    await joinRoomFromEmeet(studentPage, roomId);

    const teacherTile = studentPage.getByRole('group', { name: teacher.name, exact: true });
    const studentTile = teacherPage.getByRole('group', { name: student.name, exact: true });
    await expectVideoFlowing(teacherTile);
    await expectVideoFlowing(studentTile);

    // A third person, on instance A, finds the room full: the limit counts both instances.
    const lateContext = await contextOn(browser, instanceA.baseUrl);
    contexts.push(lateContext);
    const lateStudent = await registeredStudent(lateContext.request, { classCode: klass.joinCode });
    const latePage = await lateContext.newPage();
    await logInStudentThroughUi(latePage, lateStudent);
    await joinRoomFromEmeet(latePage, roomId);
    await expect(latePage.getByRole('heading', { name: 'This room is full' })).toBeVisible();
    await expect(latePage.getByRole('alert')).toHaveText(CLOSE_MESSAGES.ROOM_FULL);
    await expect(latePage.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(teacherPage.getByRole('group')).toHaveCount(2); // the teacher and the student only

    // Instance B restarts: the student's page says so, and reconnects when it is back.
    await instanceB.stop();
    await expect(studentPage.getByRole('status').filter({ hasText: /Reconnecting|Trying again/ })).toBeVisible();
    await expect(studentTile).toHaveCount(0); // B gave the seat back as it stopped
    await instanceB.start();
    await expect(studentPage.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
    await expectVideoFlowing(teacherPage.getByRole('group', { name: student.name, exact: true }));
    await expectVideoFlowing(teacherTile);
  } finally {
    for (const context of contexts) await context.close();
    await cluster.stop();
  }
});
