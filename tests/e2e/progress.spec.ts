import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { STUDY_MODE } from '../../src/shared/constants.ts';
import { logInStudentThroughUi, logInTeacherThroughUi, enterStudyMode } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectToast } from './toasts.ts';
import { seedTwoClasses, type ExpectedRow, type SeededClasses } from './progress-setup.ts';
import { patience } from '../../src/server/testing/patience.ts';

const SCREENSHOT_DIR = 'docs/screenshots';
/** Both sizes, to look at (gitignored). */
const QA_DIR = '.qa-tmp/screenshots';
mkdirSync(QA_DIR, { recursive: true });

let seeded: SeededClasses;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
  seeded = await seedTwoClasses(request);
  await request.dispose();
});

async function shoot(page: Page, name: string, projectName: string, { keepPointer = false, inDocs = true } = {}) {
  // No login toast, no study-mode notice, no menu tooltip of the link just used: the screen as a person reads it.
  await expect(page.getByText('Logged in successfully')).toHaveCount(0);
  await expect(page.getByText(STUDY_MODE.fullscreenNotice)).toHaveCount(0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  if (!keepPointer) await page.mouse.move(page.viewportSize()!.width - 1, page.viewportSize()!.height - 1);
  // Let the tooltip fades (CSS transitions) finish.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.screenshot({ path: `${QA_DIR}/${projectName}-${name}.png`, fullPage: true });
  if (projectName === 'desktop' && inDocs) await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
}

const rowsOf = (page: Page) => page.getByTestId('leaderboard-row');

/** The table shows exactly these students, in this order, with the right marks and colours. */
async function expectRanking(page: Page, expected: ExpectedRow[], { stars }: { stars: boolean }) {
  const rows = rowsOf(page);
  await expect(rows).toHaveCount(expected.length);
  for (const [index, row] of expected.entries()) {
    const rank = index + 1;
    const shown = rows.nth(index);
    await expect(shown.getByRole('rowheader')).toContainText(row.name);
    await expect(shown).toHaveAttribute('data-rank', String(rank));
    await expect(shown.getByRole('cell').first()).toContainText(String(rank));
    // Top 3 highlighted; the teacher's table stars ranks under 5.
    await expect(shown).toHaveAttribute('data-highlighted', String(rank <= 3));
    await expect(shown).toHaveAttribute('data-starred', String(stars && rank < 5));
    const badge = shown.locator('[data-band]');
    await expect(badge).toHaveText(row.accuracy);
    await expect(badge).toHaveAttribute('data-band', row.band);
    await expect(badge).toHaveClass(
      { good: /bg-success-soft/, fair: /bg-warning-soft/, poor: /bg-danger-soft/ }[row.band],
    );
  }
  // Screen readers hear the marks that the icons show.
  await expect(rows.first().getByRole('cell').first()).toContainText(stars ? 'top 3, starred' : 'top 3');
}

test('teacher leaderboard: ranking, top 3, stars, accuracy colours, class filter, search and a failed fetch', async ({
  page,
  pageErrors,
}, testInfo) => {
  const { classA, classB, teacher, classARanking, classBRanking } = seeded;
  await logInTeacherThroughUi(page, teacher);
  await page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'LeaderBoard' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/leaderboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();

  // All classes: both seeded classes are there, the student without a quiz is not.
  await expect(rowsOf(page).filter({ hasText: classA })).toHaveCount(classARanking.length);
  await expect(rowsOf(page).filter({ hasText: classB })).toHaveCount(classBRanking.length);
  await expect(page.getByText('Gus Novak')).toHaveCount(0);

  // One class: ranks inside it.
  await page.getByLabel('Class', { exact: true }).selectOption({ label: classA });
  await expect(page).toHaveURL(/classId=[0-9a-f-]{36}/);
  await expectRanking(page, classARanking, { stars: true });
  await expectAccessible(page, 'teacher leaderboard, one class');
  await shoot(page, 'leaderboard-teacher', testInfo.project.name);

  // Search: case-insensitive substring, on the server; the rank stays the class rank.
  const search = page.getByLabel('Search by name');
  await search.fill('LEO');
  await expect(rowsOf(page)).toHaveCount(1);
  await expect(rowsOf(page).first()).toContainText('Cleo Park');
  await expect(rowsOf(page).first()).toHaveAttribute('data-rank', '3');
  await expect(page).toHaveURL(/search=LEO/);
  await search.fill('nobody at all');
  await expect(page.getByText('No students found')).toBeVisible();
  await expectAccessible(page, 'teacher leaderboard, nothing found');
  await search.fill('');
  await expect(rowsOf(page)).toHaveCount(classARanking.length);

  await page.getByLabel('Class', { exact: true }).selectOption({ label: classB });
  await expect(rowsOf(page)).toHaveCount(classBRanking.length);
  for (const [index, name] of classBRanking.entries()) await expect(rowsOf(page).nth(index)).toContainText(name);

  // SPEC §8: a failed fetch says 'Failed to fetch students'.
  pageErrors.allow(/status of 500/);
  await page.route('**/api/get-students?**', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, code: 'INTERNAL_ERROR', message: 'Something went wrong', data: null }),
    }),
  );
  await page.reload();
  // TanStack Query retries three times first (about 7 s).
  await expectToast(page, 'Failed to fetch students', { timeout: patience(20_000) });
  await expect(page.getByRole('alert')).toContainText('Failed to fetch students');
  await page.unroute('**/api/get-students?**');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(rowsOf(page)).toHaveCount(classBRanking.length);
});

test('student leaderboard: only the student’s own class, top 3 highlighted, no stars', async ({ page }, testInfo) => {
  const { classA, students, classARanking } = seeded;
  const ben = students['Ben Carter']!;
  await logInStudentThroughUi(page, ben);
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'LeaderBoard' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/leaderboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Class leaderboard' })).toBeVisible();
  await expect(page.getByText(`Class ${classA}, ranked by average score`)).toBeVisible();
  await expectRanking(page, classARanking, { stars: false });
  await expect(page.getByText('Zoe Quinn')).toHaveCount(0);
  await expectAccessible(page, 'student leaderboard');
  await shoot(page, 'leaderboard-student', testInfo.project.name);

  // A class not theirs in the address changes nothing: their first class is shown.
  await page.goto(`/dashboard/student/leaderboard?classId=${crypto.randomUUID()}`);
  await enterStudyMode(page);
  await expectRanking(page, classARanking, { stars: false });

  await page.getByLabel('Search by name').fill('walsh');
  await expect(rowsOf(page)).toHaveCount(1);
  await expect(rowsOf(page).first()).toHaveAttribute('data-rank', '6');

  // Load more, with pages of 2 instead of 50: each page continues the ranking.
  await page.route('**/api/get-students?**', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('limit', '2');
    return route.continue({ url: url.toString() });
  });
  await page.goto('/dashboard/student/leaderboard');
  await enterStudyMode(page);
  await expect(rowsOf(page)).toHaveCount(2);
  for (const shown of [4, 6]) {
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(rowsOf(page)).toHaveCount(shown);
  }
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expectRanking(page, classARanking, { stars: false });
});

/** A point in the middle of this subject's slice, found by asking the page what is under each point of a ring. */
async function pointInSlice(page: Page, subject: string) {
  const point = await page.evaluate((name) => {
    const surface = document.querySelector('[data-testid="subject-pie"]')!.getBoundingClientRect();
    const [cx, cy] = [surface.left + surface.width / 2, surface.top + surface.height / 2];
    const at = (degrees: number) => {
      const radians = (degrees * Math.PI) / 180;
      return { x: cx + 80 * Math.cos(radians), y: cy + 80 * Math.sin(radians) };
    };
    // The middle of the slice's run of angles, away from its edges.
    const hits = Array.from({ length: 72 }, (_, index) => index * 5).filter((degrees) => {
      const { x, y } = at(degrees);
      return document.elementFromPoint(x, y)?.getAttribute('data-subject') === name;
    });
    if (hits.length === 0) return null;
    const wraps = hits.includes(0) && hits.includes(355);
    const unwrapped = wraps ? hits.map((degrees) => (degrees < 180 ? degrees + 360 : degrees)) : hits;
    unwrapped.sort((a, b) => a - b);
    return at(unwrapped[Math.floor(unwrapped.length / 2)]!);
  }, subject);
  expect(point, `a point of the ${subject} slice`).not.toBeNull();
  return point!;
}

/** The share of a ring around the pie's centre (radius 80 px) that this subject's slice covers. */
const sweep = async (page: Page, subject: string) =>
  page.evaluate((name) => {
    const surface = document.querySelector('[data-testid="subject-pie"]')!.getBoundingClientRect();
    const [cx, cy] = [surface.left + surface.width / 2, surface.top + surface.height / 2];
    let hits = 0;
    for (let degrees = 0; degrees < 360; degrees += 1) {
      const radians = (degrees * Math.PI) / 180;
      const element = document.elementFromPoint(cx + 80 * Math.cos(radians), cy + 80 * Math.sin(radians));
      if (element?.getAttribute('data-subject') === name) hits += 1;
    }
    return hits / 360;
  }, subject);

/**
 * Near-white pixels inside the pie as drawn (a screenshot, read in the page), away from the
 * anti-aliased rim: a one-subject pie has none, where a 360-degree sector would show its
 * white edge from the centre to the rim.
 */
async function whitePixelsInsidePie(page: Page) {
  const png = await page.getByTestId('subject-pie').screenshot({ animations: 'disabled' });
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    // The pie's radius is 134 of the 300 px: look within 126.
    const radius = (126 * width) / 300;
    let white = 0;
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        if ((x - width / 2) ** 2 + (y - height / 2) ** 2 > radius ** 2) continue;
        const offset = (y * width + x) * 4;
        if (data[offset]! > 230 && data[offset + 1]! > 230 && data[offset + 2]! > 230) white += 1;
      }
    }
    return white;
  }, png.toString('base64'));
}

test('statistics: the pie has one slice per subject with its numbers, and a student without quizzes sees the empty state', async ({
  page,
}, testInfo) => {
  const { students } = seeded;
  await logInStudentThroughUi(page, students['Ben Carter']!);
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/statistics$/);
  await expect(page.getByRole('heading', { level: 1, name: "Ben Carter's Analytics" })).toBeVisible();
  await expect(page.getByTestId('statistic-Average score')).toHaveText('2.50');
  await expect(page.getByTestId('statistic-Average accuracy')).toHaveText('83.34%');
  await expect(page.getByTestId('statistic-Quizzes attempted')).toHaveText('2');
  await expect(page.getByRole('heading', { name: 'Performance by Subject' })).toBeVisible();

  // SPEC §9: 300 by 300 pixels; one slice per subject.
  const surface = page.getByTestId('subject-pie');
  await expect(surface).toHaveAttribute('width', '300');
  await expect(surface).toHaveAttribute('height', '300');
  const box = await surface.boundingBox();
  expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([300, 300]);
  // Points are read off the screen: the whole pie must be in view (below the fold on a phone).
  await surface.scrollIntoViewIfNeeded();
  const slices = page.getByTestId('subject-slice');
  await expect(slices).toHaveCount(2);
  // The chart's text alternative names the slices.
  await expect(page.getByRole('img', { name: /Pie chart of average accuracy by subject/ })).toHaveAccessibleName(
    'Pie chart of average accuracy by subject: Mathematics 100% and Physics 66.67%',
  );

  const tooltip = page.getByTestId('subject-tooltip');
  const ring = page.getByTestId('active-slice-ring');
  const expectations = {
    // Percentages are written one way everywhere (issue 18): '100%', not '100.00%'.
    Mathematics: { accuracy: '100%', score: '3.00' },
    Physics: { accuracy: '66.67%', score: '2.00' },
  };
  const expectDetailsOf = async (subject: keyof typeof expectations) => {
    const expected = expectations[subject];
    await expect(tooltip).toHaveAttribute('data-open', 'true');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(subject);
    await expect(tooltip).toContainText(`Average accuracy${expected.accuracy}`);
    await expect(tooltip).toContainText(`Average score${expected.score}`);
    await expect(tooltip).toContainText('Tests attempted1');
    await expect(tooltip).toContainText(/Average time\d+\.\d{2} min/);
    // The slice is marked, in its colour.
    const fill = await page.locator(`[data-testid="subject-slice"][data-subject="${subject}"]`).getAttribute('fill');
    await expect(ring).toHaveCount(1);
    await expect(ring).toHaveAttribute('stroke', fill!);
  };
  for (const subject of ['Mathematics', 'Physics'] as const) {
    const { x, y } = await pointInSlice(page, subject);
    await page.mouse.move(x, y, { steps: 5 });
    await expectDetailsOf(subject);
  }
  // The pointer leaving the pie hides the details (they fade out).
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveAttribute('data-open', 'false');
  await expect(ring).toHaveCount(0);

  // Slices sized by accuracy: Mathematics (100) takes 60 % of the circle, Physics (66.67) 40 %.
  expect(await sweep(page, 'Mathematics')).toBeCloseTo(0.6, 1);
  expect(await sweep(page, 'Physics')).toBeCloseTo(0.4, 1);

  if (testInfo.project.use.hasTouch) {
    // A phone has no hover: a tap on a slice shows its numbers, a tap elsewhere hides them.
    const point = await pointInSlice(page, 'Physics');
    await page.touchscreen.tap(point.x, point.y);
    await expectDetailsOf('Physics');
    await page.getByRole('heading', { name: 'Performance by Subject' }).tap();
    await expect(tooltip).toHaveAttribute('data-open', 'false');
  }

  // By keyboard: each legend entry is a tab stop that shows its subject's numbers; Escape hides them.
  const legend = page.getByTestId('subject-legend-entry');
  await expect(legend).toHaveText(['Mathematics100%', 'Physics66.67%']);
  await legend.first().focus();
  await expectDetailsOf('Mathematics');
  await page.keyboard.press('Tab');
  await expect(legend.nth(1)).toBeFocused();
  await expectDetailsOf('Physics');
  await expect(legend.nth(1)).toHaveAccessibleDescription(/^Physics\s*Average accuracy\s*66\.67%/);
  await page.keyboard.press('Escape');
  await expect(tooltip).toHaveAttribute('data-open', 'false');
  await expect(legend.nth(1)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expectDetailsOf('Mathematics');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(tooltip).toHaveAttribute('data-open', 'false');

  const table = page.getByRole('table', { name: 'Subject details' });
  await expect(table.getByRole('row', { name: /Mathematics/ })).toContainText('100%');
  await expect(table.getByRole('row', { name: /Physics/ })).toContainText('66.67%');
  const { x, y } = await pointInSlice(page, 'Mathematics');
  await page.mouse.move(x, y);
  await expect(tooltip).toBeVisible();
  await expectAccessible(page, 'statistics with the tooltip open');
  await shoot(page, 'statistics', testInfo.project.name, { keepPointer: true });

  // A student without a submitted quiz.
  await page.evaluate(() => localStorage.clear());
  await logInStudentThroughUi(page, students['Gus Novak']!);
  await page.goto('/dashboard/student/statistics');
  await enterStudyMode(page);
  await expect(page.getByRole('heading', { level: 1, name: "Gus Novak's Analytics" })).toBeVisible();
  await expect(page.getByText('No quizzes attempted yet')).toBeVisible();
  await expect(page.getByText('Take some quizzes to see your analytics here.')).toBeVisible();
  await expect(page.getByTestId('subject-pie')).toHaveCount(0);
  await expectAccessible(page, 'statistics, empty');
  await shoot(page, 'statistics-empty', testInfo.project.name);
});

test('statistics: one subject fills the whole pie with no seam; a student at 0% sees the legend and no slices', async ({
  page,
}, testInfo) => {
  const { students } = seeded;
  // Zoe Quinn took one Mathematics quiz: 3 of 3 right.
  await logInStudentThroughUi(page, students['Zoe Quinn']!);
  await page.goto('/dashboard/student/statistics');
  await enterStudyMode(page);
  await expect(page.getByRole('heading', { level: 1, name: "Zoe Quinn's Analytics" })).toBeVisible();
  const pie = page.getByTestId('subject-pie');
  await expect(pie).toHaveAccessibleName('Pie chart of average accuracy by subject: Mathematics 100%');
  await pie.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('subject-slice')).toHaveCount(1);
  expect(await sweep(page, 'Mathematics')).toBe(1);
  await page.mouse.move(0, 0);
  expect(await whitePixelsInsidePie(page)).toBe(0);

  const { x, y } = await pointInSlice(page, 'Mathematics');
  await page.mouse.move(x, y);
  await expect(page.getByTestId('subject-tooltip')).toHaveAttribute('data-open', 'true');
  await expect(page.getByTestId('subject-tooltip')).toContainText('Average accuracy100%');
  await expectAccessible(page, 'statistics, one subject');
  await shoot(page, 'statistics-one-subject', testInfo.project.name, { keepPointer: true, inDocs: false });

  // Finn Walsh answered nothing right: a subject at 0 % has no slice, so there is no pie to draw.
  await page.evaluate(() => localStorage.clear());
  await logInStudentThroughUi(page, students['Finn Walsh']!);
  await page.goto('/dashboard/student/statistics');
  await enterStudyMode(page);
  await expect(page.getByRole('heading', { level: 1, name: "Finn Walsh's Analytics" })).toBeVisible();
  await expect(page.getByText('Every subject is at 0% accuracy so far, so the pie has no slices yet.')).toBeVisible();
  await expect(page.getByTestId('subject-pie')).toHaveCount(0);
  await expect(page.getByTestId('subject-legend-entry')).toHaveText(['Mathematics0%']);
  await page.getByTestId('subject-legend-entry').focus();
  await expect(page.getByTestId('subject-tooltip')).toContainText('Average accuracy0%');
  await expectAccessible(page, 'statistics, every subject at 0%');
});
