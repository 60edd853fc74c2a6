import type { Browser, BrowserContext, Page } from '@playwright/test';
import { BoardTestPage, strokeBy } from '../../src/server/features/class-boards/board-test-client.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { enterStudyMode, signInByToken } from './actors.ts';
import { signedInStudent, teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * Issue 35's proof, in Chromium: a teacher and three students (one on a phone) on one class
 * board. The teacher draws and everyone sees it; a student without the pen cannot draw, and an
 * update forged past the page is refused by the server; the teacher hands the pen, the student
 * draws; each undoes only their own strokes; a page that goes offline keeps drawing and its
 * strokes reach everyone when it is back; a reload shows the whole board. CI runs the desktop
 * project through nginx and two instances on PostgreSQL and Redis: the same spec, so the people
 * on the board are spread over both instances.
 */

type Person = { name: string; context: BrowserContext; page: Page };

/** A browser of its own for a student, at a desk or on a phone. */
async function studentBrowser(browser: Browser, baseURL: string, token: string, isPhone: boolean) {
  const context = await browser.newContext({
    baseURL,
    ...(isPhone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  await signInByToken(context, baseURL, { token, role: 'student' });
  return { context, page: await context.newPage() };
}

/** The page's drawing (the canvas people see) and the surface that takes the pointer. */
const drawing = (page: Page) => page.getByRole('img', { name: /^Class board, page/ });
const drawingInput = (page: Page) => page.getByTestId('board-input');

/**
 * A straight line across the page, at `row` (a fraction of its height), from a fifth to four
 * fifths of its width: by mouse at a desk, by touch-like pointer on a phone (the same events).
 */
async function drawLine(page: Page, row: number) {
  const box = (await drawingInput(page).boundingBox())!;
  const y = box.y + box.height * row;
  await page.mouse.move(box.x + box.width * 0.2, y);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++) await page.mouse.move(box.x + box.width * (0.2 + (0.6 * step) / 12), y);
  await page.mouse.up();
}

/**
 * Whether the drawing shows ink on the line at `row` (the middle of its width, a few pixels
 * around): the same fraction of the page on every screen, whatever its size.
 */
function inkAt(page: Page, row: number): Promise<boolean> {
  return drawing(page).evaluate((canvas: HTMLCanvasElement, at) => {
    const context = canvas.getContext('2d')!;
    const x = Math.round(canvas.width * 0.5);
    const y = Math.round(canvas.height * at);
    const radius = Math.max(4, Math.round(canvas.height / 100));
    const { data } = context.getImageData(x - radius, y - radius, radius * 2, radius * 2);
    for (let index = 0; index < data.length; index += 4) {
      const [red, green, blue, alpha] = [data[index]!, data[index + 1]!, data[index + 2]!, data[index + 3]!];
      if (alpha > 64 && red + green + blue < 600) return true;
    }
    return false;
  }, row);
}

async function expectInk(people: Page[], row: number, isThere: boolean) {
  for (const page of people) await expect.poll(() => inkAt(page, row), { timeout: patience(10_000) }).toBe(isThere);
}

const TEACHER_ROW = 0.3;
const STUDENT_ROW = 0.5;
const OFFLINE_ROW = 0.7;

test('a teacher and three students draw on one class board, each undoing their own', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run holds the desks and the phone');
  test.setTimeout(patience(240_000));
  const { token: teacherToken, klass } = await teacherWithClass(page.request);
  const names = ['Ada Lovelace', 'فاطمة الزهراء', 'Chen Wei'];
  const tokens: string[] = [];
  for (const name of names) tokens.push((await signedInStudent(page.request, klass.joinCode, name)).token);
  const students: Person[] = [];
  try {
    // The teacher opens the board from the class page and adds its first page.
    await signInByToken(page.context(), baseURL!, { token: teacherToken, role: 'teacher' });
    await page.goto(`/dashboard/teacher/classes/${klass.id}`);
    await page.getByRole('link', { name: 'Open the class board' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/teacher/classes/${klass.id}/board$`));
    await page.getByRole('button', { name: 'Add page' }).click();
    await expect(drawing(page)).toBeVisible();
    await expectAccessible(page, 'the class board (teacher)');

    // The students open it: two at a desk, one on a phone. The pen is the teachers' by default.
    for (const [index, name] of names.entries()) {
      const { context, page: studentPage } = await studentBrowser(browser, baseURL!, tokens[index]!, index === 2);
      students.push({ name, context, page: studentPage });
      await studentPage.goto(`/dashboard/student/classes/${klass.id}/board`);
      await enterStudyMode(studentPage);
      await expect(drawing(studentPage)).toBeVisible();
      await expect(studentPage.getByRole('note')).toContainText('ask your teacher for the pen');
    }
    const [ada, fatima, chen] = students as [Person, Person, Person];
    const everyone = [page, ada.page, fatima.page, chen.page];
    await expectAccessible(chen.page, 'the class board on a phone (read only)');

    // The teacher draws; everyone sees it.
    await drawLine(page, TEACHER_ROW);
    await expectInk(everyone, TEACHER_ROW, true);

    // Ada has no pen: her pointer draws nothing, anywhere.
    await drawLine(ada.page, STUDENT_ROW);
    await page.waitForTimeout(500);
    await expectInk(everyone, STUDENT_ROW, false);

    // Past the page: an update of a stroke sent on Ada's own board token straight to the socket.
    const ticket = await page.request.post(`/api/class-boards/${klass.id}/token`, {
      headers: { authorization: `Bearer ${tokens[0]}` },
    });
    expect(ticket.ok(), await ticket.text()).toBe(true);
    const forger = await BoardTestPage.open(baseURL!, (await ticket.json()).data.token as string);
    try {
      await forger.until((board) => board.pages.size > 0, 'the board’s first sync');
      const pageId = [...forger.pages.keys()][0]!;
      forger.draw(pageId, strokeBy(forger.welcome.you.id));
      const refused = await forger.client.waitFor('error');
      expect(refused.code).toBe('NO_PEN');
    } finally {
      forger.close();
    }
    // The forged socket took Ada's seat: her page says so; she opens the board again.
    ada.page.once('dialog', (dialog) => void dialog.accept());
    await ada.page.reload();
    await enterStudyMode(ada.page);
    await expect(drawing(ada.page)).toBeVisible();

    // The teacher hands Ada the pen from the list of the class's students, where those on the board
    // now are marked.
    await page.getByRole('button', { name: 'Who draws' }).click();
    await expect(page.getByText('3 students are on the board now.')).toBeVisible();
    await expect(page.locator('label', { hasText: ada.name }).getByText('On the board')).toBeVisible();
    // Each choice is the server's once it answers (the pen is the board's, not the page's).
    const named = page.getByRole('radio', { name: 'Teachers and the students chosen below' });
    await named.click();
    await expect(named).toBeChecked();
    const adaPen = page.getByRole('switch', { name: `Hand the pen to ${ada.name}` });
    await adaPen.click();
    await expect(adaPen).toBeChecked();
    await expect(ada.page.getByRole('note')).toBeHidden();
    await drawLine(ada.page, STUDENT_ROW);
    await expectInk(everyone, STUDENT_ROW, true);
    // Fatima still has none.
    await expect(fatima.page.getByRole('note')).toContainText('ask your teacher for the pen');

    // Each undoes only their own: Ada's Undo takes her line, not the teacher's; the teacher's
    // takes the teacher's, not Ada's (Redo brought it back).
    await ada.page.getByRole('button', { name: 'Undo' }).click();
    await expectInk(everyone, STUDENT_ROW, false);
    await expectInk(everyone, TEACHER_ROW, true);
    await ada.page.getByRole('button', { name: 'Redo' }).click();
    await expectInk(everyone, STUDENT_ROW, true);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expectInk(everyone, TEACHER_ROW, false);
    await expectInk(everyone, STUDENT_ROW, true);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expectInk(everyone, TEACHER_ROW, true);

    // Ada's connection drops: she keeps drawing; back online, everyone has her line.
    await ada.context.setOffline(true);
    await expect(ada.page.getByRole('status').filter({ hasText: /Offline/ })).toBeVisible({
      timeout: patience(15_000),
    });
    await drawLine(ada.page, OFFLINE_ROW);
    await expectInk([ada.page], OFFLINE_ROW, true);
    await expectInk([page, fatima.page], OFFLINE_ROW, false);
    // The line under the toolbar (not a live region: it changes at every stroke) says it is kept.
    await expect(ada.page.getByText(/^Offline: 1 change kept here/)).toBeVisible();
    await ada.context.setOffline(false);
    await expectInk(everyone, OFFLINE_ROW, true);
    await expect(ada.page.getByText(/^Saved/)).toBeVisible({ timeout: patience(15_000) });

    // A reload shows the whole board (study mode asks before it; the student says yes).
    fatima.page.once('dialog', (dialog) => void dialog.accept());
    await fatima.page.reload();
    await enterStudyMode(fatima.page);
    await expectInk([fatima.page], TEACHER_ROW, true);
    await expectInk([fatima.page], STUDENT_ROW, true);
    await expectInk([fatima.page], OFFLINE_ROW, true);
    await page.reload();
    await expectInk([page], OFFLINE_ROW, true);
  } finally {
    for (const student of students) await student.context.close();
  }
});
