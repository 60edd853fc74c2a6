import { readFileSync } from 'node:fs';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { livePoints, type LiveGameReport } from '../../src/shared/live-games.ts';
import { buildNewQuiz, TYPED_QUESTIONS } from '../../src/server/testing/factories.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { enterStudyMode, signInByToken } from './actors.ts';
import { signedInStudent, teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * Issue 34's proof, in Chromium: a teacher hosts a live game of a quiz of every question type
 * the game plays, on a desktop screen; six students play on phones. One reloads in the middle of
 * a question and finishes with their score; one joins after the second question (by the PIN);
 * the host reloads between questions and goes on. The podium, each phone's final score, the
 * report and its CSV agree with the scores the test computes from the server's times. CI runs
 * the desktop project through nginx and two instances on PostgreSQL and Redis: the same spec.
 */

const SECONDS = 60;
/** Played in this order; the essay is skipped by the game. */
const QUESTIONS = [
  {
    type: 'single' as const,
    question_text: 'What is 2 + 2?',
    points: 1,
    options: [
      { text: '4', correct: true },
      { text: '3', correct: false },
      { text: '5', correct: false },
    ],
  },
  ...TYPED_QUESTIONS.filter((question) => question.type !== 'description'),
  { type: 'essay' as const, question_text: 'Why do we sleep?', points: 2, guidance: 'Memory and rest.' },
];
const PLAYED = 6;

type Player = { name: string; token: string; context: BrowserContext; page: Page };

/** What a phone does to answer question `index` right or wrong. */
async function answer(page: Page, index: number, isRight: boolean) {
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  switch (index) {
    case 0:
      return button(isRight ? '4' : '5').click();
    case 1:
      for (const option of isRight ? ['Two', 'Four'] : ['Three']) await button(option).click();
      return page.getByRole('button', { name: 'Submit answer' }).click();
    case 2:
      return button(isRight ? 'True' : 'False').click();
    case 3:
      await page.getByRole('textbox').fill(isRight ? 'Beijing' : 'Shanghai');
      return page.getByRole('button', { name: 'Submit answer' }).click();
    case 4:
      await page.getByRole('textbox').fill(isRight ? '3.5' : '7');
      return page.getByRole('button', { name: 'Submit answer' }).click();
    case 5:
      await page.getByRole('combobox', { name: 'France' }).selectOption({ label: isRight ? 'Paris' : 'Madrid' });
      await page.getByRole('combobox', { name: 'Italy' }).selectOption({ label: isRight ? 'Rome' : 'Madrid' });
      return page.getByRole('button', { name: 'Submit answer' }).click();
  }
}

async function apiOk(request: APIRequestContext, method: 'get' | 'post', url: string, token: string, data?: unknown) {
  const response = await request[method](url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()).data;
}

async function phone(
  browser: Browser,
  baseURL: string,
  token: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await signInByToken(context, baseURL, { token, role: 'student' });
  return { context, page: await context.newPage() };
}

test('a host and six phones play a live game of every question type to its podium', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.skip(
    testInfo.project.name !== 'desktop',
    'the host is at a desk and the players are phones: one run holds both',
  );
  test.setTimeout(patience(300_000));
  const { token: teacherToken, klass } = await teacherWithClass(page.request);
  const quiz = (await apiOk(
    page.request,
    'post',
    '/api/teacher/add-quiz',
    teacherToken,
    buildNewQuiz({ classId: klass.id, quiz: { background: buildNewQuiz().quiz.background, questions: QUESTIONS } }),
  )) as { _id: string; title: string };
  const names = ['Ada Lovelace', 'Ben Okri', 'Chiamaka Obi', 'Dmitri Volkov', 'Elif Şafak', 'فاطمة الزهراء'];
  const players: Player[] = [];
  for (const name of names) {
    const { token } = await signedInStudent(page.request, klass.joinCode, name);
    players.push({ name, token, ...(await phone(browser, baseURL!, token)) });
  }
  const contexts = players.map((player) => player.context);
  try {
    // The teacher opens the lobby from their quiz list.
    await signInByToken(page.context(), baseURL!, { token: teacherToken, role: 'teacher' });
    await page.goto('/dashboard/teacher/all-quiz');
    await page.getByRole('button', { name: 'Play live' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Class' }).selectOption({ label: klass.name });
    await dialog.getByRole('spinbutton', { name: 'Seconds per question' }).fill(String(SECONDS));
    await dialog.getByRole('button', { name: 'Open the lobby' }).click();
    await expect(page).toHaveURL(/\/dashboard\/teacher\/live\/[0-9a-f-]{36}$/);
    const gameId = page.url().split('/').pop()!;
    const pin = (await page.getByTestId('live-pin').textContent())!.replace(/\D/g, '');
    expect(pin).toMatch(/^\d{6}$/);
    await expect(page.getByRole('img', { name: /QR/ })).toBeVisible();
    await expectAccessible(page, 'the host lobby');

    // Five students join from their dashboards: four as a phone opens it, through study mode's
    // overlay to the PIN page and its Join (decision 070), one from the banner once in full screen.
    const early = players.slice(0, 5);
    for (const [position, player] of early.entries()) {
      await player.page.goto('/dashboard/student');
      if (position === 0) {
        await enterStudyMode(player.page);
      } else {
        await player.page.getByTestId('study-mode-overlay').getByRole('link', { name: 'Join a live game' }).click();
      }
      await player.page.getByRole('region', { name: 'Live games' }).getByRole('link', { name: /Join/ }).click();
      await expect(player.page.getByText('You’re in!')).toBeVisible();
      await expect(player.page.getByTestId('study-mode-overlay')).toBeHidden();
    }
    await expectAccessible(early[0]!.page, 'a phone in the lobby');
    const roster = page.getByRole('list', { name: 'Players' });
    for (const player of early) await expect(roster).toContainText(player.name);
    await page.getByRole('button', { name: 'Start' }).click();

    const late = players[5]!;
    const reloader = players[1]!;
    const inGame = [...early];
    for (let index = 0; index < PLAYED; index++) {
      await expect(page.getByText(`Question ${index + 1} of ${PLAYED}`).first()).toBeVisible();
      for (const [position, player] of inGame.entries()) {
        await expect(player.page.getByText(`Question ${index + 1} of ${PLAYED}`).first()).toBeVisible();
        if (index === 1 && player === reloader) {
          // The phone reloads in the middle of the question: the same player, the question still open,
          // and nothing in between (the game is outside study mode: no question, no overlay).
          await player.page.reload();
          await expect(player.page.getByText(`Question ${index + 1} of ${PLAYED}`).first()).toBeVisible();
        }
        await answer(player.page, index, (position + index) % 3 !== 0);
        await expect(player.page.getByText(/Answer (sent|locked in)/)).toBeVisible();
      }
      if (index === 0) await expectAccessible(inGame[0]!.page, 'a phone with its answer sent');
      await expect(page.getByText(`${inGame.length} of ${inGame.length}`, { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Skip' }).click();
      for (const player of inGame)
        await expect(player.page.getByText(/Right|Partly right|Wrong/).first()).toBeVisible();
      if (index === 1) {
        // After the second question, the sixth student types the PIN on the join page.
        await late.page.goto(`/live?pin=${pin}`);
        await expect(late.page.getByText('You’re in!')).toBeVisible();
        inGame.push(late);
      }
      if (index === 2) {
        // The host's page reloads between questions and takes the game back.
        await page.reload();
        await expect(page.getByText(`Question ${index + 1} of ${PLAYED}: closed`)).toBeVisible();
      }
      if (index === 0) await expectAccessible(page, 'the host after a close');
      await page.getByRole('button', { name: index === PLAYED - 1 ? 'Show podium' : 'Next' }).click();
    }

    // The podium shows once the server has ended the game; only then is there a report to read
    // (asked at once after the click, it raced the end through the cluster: NOT_FOUND).
    await expect(page.getByRole('list', { name: 'Podium' })).toBeVisible();

    // The server's report, and the scores the test computes from its times by the published rule.
    const report = (await apiOk(
      page.request,
      'get',
      `/api/quizzes/${quiz._id}/live-games/${gameId}`,
      teacherToken,
    )) as LiveGameReport;
    const computed = new Map(
      report.players.map((entry) => [
        entry.student.name,
        entry.answers.reduce((sum, given) => sum + livePoints(given.fraction, given.elapsedMs, SECONDS * 1000), 0),
      ]),
    );
    for (const entry of report.players) expect(entry.score, entry.student.name).toBe(computed.get(entry.student.name));
    expect(report.players).toHaveLength(6);
    const lateEntry = report.players.find((entry) => entry.student.name === late.name)!;
    expect(lateEntry.answers).toHaveLength(PLAYED - 2);
    const reloaded = report.players.find((entry) => entry.student.name === reloader.name)!;
    expect(reloaded.answers).toHaveLength(PLAYED);

    // Each phone's final score is its own; the podium shows the top three.
    for (const player of players) {
      await expect(player.page.getByText('The game is over')).toBeVisible();
      await expect(player.page.getByTestId('live-score')).toHaveText(
        new Intl.NumberFormat('en').format(computed.get(player.name)!),
      );
    }
    const podium = [...report.players].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99)).slice(0, 3);
    for (const entry of podium) await expect(page.getByText(entry.student.name).first()).toBeVisible();
    await expectAccessible(page, 'the podium');

    // The report under the quiz's analytics, and its CSV, say the same.
    await page.goto(`/dashboard/teacher/quiz-analytics/${quiz._id}/live/${gameId}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    for (const [name, score] of computed) {
      const line = csv.split(/\r?\n/).find((row) => row.includes(name));
      expect(line, `${name} in the CSV`).toBeDefined();
      expect(line!.split(',')).toContain(String(score));
    }
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});
