import { readFileSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { logInStudentThroughUi, logInTeacherThroughUi, registerTeacherThroughUi, enterStudyMode } from './actors.ts';
import { registeredStudent } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

type Rgb = [number, number, number];
const INK: Rgb = [0x3b, 0x3b, 0x3b];
const PAPER: Rgb = [255, 255, 255];
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Three horizontal strokes (CSS pixels from the board's top-left corner), 60 px apart. */
const STROKES = [40, 100, 160].map((y) => ({ from: { x: 30, y }, to: { x: 230, y } }));
/** Where each stroke is checked: along its middle, away from its round ends. */
const SAMPLE_XS = [80, 130, 180];

const board = (page: Page) => page.getByTestId('whiteboard');

/**
 * Draws a straight stroke the way a person would: with the mouse on the
 * desktop project, with a finger (touch events through the DevTools
 * protocol, which Playwright's touchscreen only offers as taps) on mobile.
 */
async function drawLine(
  page: Page,
  testInfo: TestInfo,
  from: { x: number; y: number },
  to: { x: number; y: number },
): Promise<void> {
  const box = (await board(page).boundingBox())!;
  const at = (t: number) => ({ x: box.x + from.x + (to.x - from.x) * t, y: box.y + from.y + (to.y - from.y) * t });
  const steps = 12;
  if (testInfo.project.name === 'mobile') {
    const session = await page.context().newCDPSession(page);
    await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(0)] });
    for (let step = 1; step <= steps; step += 1) {
      await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at(step / steps)] });
    }
    await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await session.detach();
  } else {
    await page.mouse.move(at(0).x, at(0).y);
    await page.mouse.down();
    await page.mouse.move(at(1).x, at(1).y, { steps });
    await page.mouse.up();
  }
}

/** The colour of the board's pixel under a point given in CSS pixels, read from the canvas itself. */
function colourAt(page: Page, x: number, y: number): Promise<Rgb> {
  return board(page).evaluate(
    (canvas: HTMLCanvasElement, [cssX, cssY]) => {
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const context = canvas.getContext('2d')!;
      const [red, green, blue] = context.getImageData(Math.floor(cssX! * scale), Math.floor(cssY! * scale), 1, 1).data;
      return [red!, green!, blue!] as Rgb;
    },
    [x, y],
  );
}

/** Whether each of the three strokes is on the board (every sample in ink) or gone (every sample white). */
async function strokesShown(page: Page): Promise<('ink' | 'paper' | 'mixed')[]> {
  const near = (colour: Rgb, expected: Rgb) =>
    colour.every((channel, index) => Math.abs(channel - expected[index]!) <= 8);
  const result: ('ink' | 'paper' | 'mixed')[] = [];
  for (const { from } of STROKES) {
    const colours = await Promise.all(SAMPLE_XS.map((x) => colourAt(page, x, from.y)));
    result.push(
      colours.every((colour) => near(colour, INK))
        ? 'ink'
        : colours.every((colour) => near(colour, PAPER))
          ? 'paper'
          : 'mixed',
    );
  }
  return result;
}

/** The stored drawings of this browser: key and parsed value. */
function storedDrawings(page: Page): Promise<{ key: string; cursor: number; strokes: number }[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('whiteboard:'))
      .map((key) => {
        const stored = JSON.parse(localStorage.getItem(key)!) as { cursor: number; strokes: unknown[] };
        return { key, cursor: stored.cursor, strokes: stored.strokes.length };
      }),
  );
}

test('teacher draws three strokes, undoes twice, redoes once, finds it after a reload, saves canvas_image.png, erases and clears', async ({
  page,
}, testInfo) => {
  const teacher = await registerTeacherThroughUi(page);
  await logInTeacherThroughUi(page, teacher);
  await page.getByRole('link', { name: 'Draw' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/canvas$/);
  await expect(page.getByRole('heading', { name: 'Whiteboard' })).toBeAttached();
  await expect(board(page)).toBeVisible();
  const undoButton = page.getByRole('button', { name: 'Undo' });
  const redoButton = page.getByRole('button', { name: 'Redo' });
  await expect(undoButton).toBeDisabled();
  await expect(redoButton).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Brush size' })).toHaveValue('3');
  await expectAccessible(page, 'whiteboard');
  // The page fits the window: no scrolling sideways, the board fills the main area.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  for (const stroke of STROKES) await drawLine(page, testInfo, stroke.from, stroke.to);
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'ink']);

  await undoButton.click();
  await undoButton.click();
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'paper', 'paper']);
  await redoButton.click();
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'paper']);
  await expect(undoButton).toBeEnabled();
  await expect(redoButton).toBeEnabled();

  // Kept 400 ms after the last change: the history with its cursor, one item per role and account.
  await expect.poll(() => storedDrawings(page)).toEqual([expect.objectContaining({ cursor: 2, strokes: 3 })]);
  expect((await storedDrawings(page))[0]!.key).toMatch(/^whiteboard:teacher:.+/);

  await page.reload();
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'paper']);
  // The redo tail survived the reload too; the keyboard shortcuts work.
  await expect(redoButton).toBeEnabled();
  await page.keyboard.press('Control+Shift+Z');
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'ink']);
  await page.keyboard.press('Control+Z');
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'paper']);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('canvas_image.png');
  const png = readFileSync((await download.path())!);
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);

  // Erase paints white with a grab cursor; Draw brings back the default cursor.
  await page.getByRole('button', { name: 'Erase' }).click();
  await expect(page.getByRole('button', { name: 'Erase' })).toHaveAttribute('aria-pressed', 'true');
  await expect(board(page)).toHaveCSS('cursor', 'grab');
  await drawLine(page, testInfo, { x: 130, y: 20 }, { x: 130, y: 120 });
  await expect.poll(() => colourAt(page, 130, 40)).toEqual(PAPER);
  await expect.poll(() => colourAt(page, 130, 100)).toEqual(PAPER);
  expect(await colourAt(page, 80, 40)).toEqual(INK);
  await page.getByRole('button', { name: 'Draw' }).click();
  await expect(board(page)).toHaveCSS('cursor', 'default');
  await expect(page.getByLabel('Brush colour')).toHaveValue('#3b3b3b');

  // Clear: white, nothing to undo, nothing stored.
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect.poll(() => strokesShown(page)).toEqual(['paper', 'paper', 'paper']);
  expect(await colourAt(page, 130, 40)).toEqual(PAPER);
  await expect(undoButton).toBeDisabled();
  await expect(redoButton).toBeDisabled();
  expect(await storedDrawings(page)).toEqual([]);
  await page.reload();
  await expect(board(page)).toBeVisible();
  await expect(undoButton).toBeDisabled();
  expect(await storedDrawings(page)).toEqual([]);
});

test('a student draws on their own whiteboard, kept under their own key', async ({ page, request }, testInfo) => {
  const student = await registeredStudent(request);
  await logInStudentThroughUi(page, student);
  await page.getByRole('link', { name: 'Draw' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/canvas$/);
  await expect(board(page)).toBeVisible();
  await expectAccessible(page, 'student whiteboard');

  await page.getByLabel('Brush size').selectOption('10');
  await drawLine(page, testInfo, STROKES[0]!.from, STROKES[0]!.to);
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'paper', 'paper']);
  // 10 px wide: ink 4 px above the line's middle too.
  expect(await colourAt(page, 130, 36)).toEqual(INK);
  await expect.poll(() => storedDrawings(page)).toEqual([expect.objectContaining({ cursor: 1, strokes: 1 })]);
  expect((await storedDrawings(page))[0]!.key).toMatch(/^whiteboard:student:.+/);
  await page.reload();
  await enterStudyMode(page);
  await expect.poll(() => strokesShown(page)).toEqual(['ink', 'paper', 'paper']);
});

test.describe('on a high-DPI screen', () => {
  test.use({ deviceScaleFactor: 2 });

  test('the board has two device pixels per CSS pixel and keeps the drawing sharp through window resizes', async ({
    page,
    request,
  }, testInfo) => {
    const student = await registeredStudent(request);
    await logInStudentThroughUi(page, student);
    await page.goto('/dashboard/student/canvas');
    await enterStudyMode(page);
    await expect(board(page)).toBeVisible();
    const backingScale = () =>
      board(page).evaluate((canvas: HTMLCanvasElement) => {
        const rect = canvas.getBoundingClientRect();
        return [canvas.width / Math.round(rect.width), canvas.height / Math.round(rect.height)];
      });
    await expect.poll(backingScale).toEqual([2, 2]);

    await drawLine(page, testInfo, STROKES[0]!.from, STROKES[0]!.to);
    await drawLine(page, testInfo, STROKES[1]!.from, STROKES[1]!.to);
    await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'paper']);

    const original = page.viewportSize()!;
    const smaller = testInfo.project.name === 'mobile' ? { width: 340, height: 700 } : { width: 900, height: 640 };
    for (const viewport of [smaller, original]) {
      await page.setViewportSize(viewport);
      // Redrawn from the vectors at the new size: same places, still two device pixels per CSS pixel.
      await expect.poll(backingScale).toEqual([2, 2]);
      await expect.poll(() => strokesShown(page)).toEqual(['ink', 'ink', 'paper']);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
