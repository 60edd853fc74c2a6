// Meetings: join to first remote frame (issue 7). A teacher waits in a room;
// then, round after round, a student opens the meet route in a fresh browser
// context and clicks "Join meeting", and the student's page times, with
// performance.now(), the click to the first decoded frame of the teacher's
// tile (requestVideoFrameCallback on its <video>, or videoWidth > 0 seen in an
// animation frame, whichever comes first). The other direction too: the
// teacher's page sees the student's first frame, from the student's click
// (Date.now() in both pages: one machine, one clock). Then the student leaves
// and the next round starts once the teacher's page has dropped their tile
// (the server gave the seat back). Runs the built app as `npm start` would
// (builds the client when the build is missing or older than the sources), on
// a fresh DATA_DIR, one instance, no STUN/TURN (host candidates only), in
// headless Chromium with a fake camera and microphone.
//
//   npm run bench:meeting           (node --import tsx bench/meeting-join.mjs)
//   BENCH_ROUNDS=15 BENCH_PORT=3194 CHROMIUM_PATH=/usr/bin/chromium
//
// Exits 1 when a round fails or the median is over budget.
import os from 'node:os';
import { chromium } from 'playwright-core';
import { benchAccounts, setUpBenchSchool, startBenchApp } from './bench-app.mjs';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from '../tests/chromium-args.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
/** Rounds run first and not counted, in case a first join pays for one-time set-up (see docs/benchmarks.md). */
const WARM_UP_ROUNDS = 1;
/** A generous ceiling; on one machine, host candidates only, no TURN. */
const BUDGET_MS = 3000;
/** How long a page waits for the first remote frame before the round fails. */
const FRAME_TIMEOUT_MS = 20_000;
const VIEWPORT = { width: 1280, height: 800 };

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
  return { n: sorted.length, median: at(0.5), p90: at(0.9), min: sorted[0], max: sorted.at(-1) };
}

const meetPath = (role, roomId) =>
  `/dashboard/${role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`;

/** A browser context already logged in: the session lives in localStorage (`token`, `userType`). */
function newContext(role, token) {
  return browser.newContext({
    viewport: VIEWPORT,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: baseUrl,
          localStorage: [
            { name: 'token', value: token },
            { name: 'userType', value: role },
          ],
        },
      ],
    },
  });
}

/**
 * Arms a watch in the page for the first frame of the tile named `name`: on
 * every animation frame it looks for the tile's <video> (a new element gets a
 * requestVideoFrameCallback) and checks videoWidth; the first of the two to
 * see a frame settles window.__benchFirstFrame with performance.now() and
 * Date.now() of that moment.
 */
function armFirstFrameWatch(page, name) {
  return page.evaluate(
    ([tileName, timeoutMs]) => {
      window.__benchFirstFrame = new Promise((resolve) => {
        let isDone = false;
        const watched = new WeakSet();
        const finish = (result) => {
          if (isDone) return;
          isDone = true;
          resolve(result);
        };
        const seen = (via) => finish({ perf: performance.now(), wall: Date.now(), via });
        const tileVideo = () => {
          for (const tile of document.querySelectorAll('[role="group"]')) {
            if (tile.getAttribute('aria-label') === tileName) return tile.querySelector('video');
          }
          return null;
        };
        const check = () => {
          if (isDone) return;
          const video = tileVideo();
          if (video && !watched.has(video)) {
            watched.add(video);
            video.requestVideoFrameCallback(() => seen('requestVideoFrameCallback'));
          }
          if (video && video.videoWidth > 0) seen('videoWidth');
          if (!isDone) requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
        setTimeout(() => finish({ error: `no frame from "${tileName}" in ${timeoutMs / 1000} s` }), timeoutMs);
      });
    },
    [name, FRAME_TIMEOUT_MS],
  );
}

const firstFrame = (page) => page.evaluate(() => window.__benchFirstFrame);

/** Records when the page receives the click on "Join meeting", before any handler of the app runs. */
function armJoinClickClock(page) {
  return page.evaluate(() => {
    window.__benchJoinClick = null;
    document.addEventListener(
      'click',
      (event) => {
        const button = event.target instanceof Element ? event.target.closest('button') : null;
        if (button?.textContent?.trim() === 'Join meeting' && !window.__benchJoinClick) {
          window.__benchJoinClick = { perf: performance.now(), wall: Date.now() };
        }
      },
      { capture: true },
    );
  });
}

/** The pre-join screen with the camera preview playing (the camera is open before the click). */
async function waitForPreJoin(page) {
  await page.getByRole('heading', { name: 'Ready to join?' }).waitFor();
  await page.waitForFunction(() => {
    const preview = document.querySelector('video[aria-label="Your camera preview"]');
    return preview !== null && preview.videoWidth > 0;
  });
}

/** The student dashboard is blocked until full screen (study mode): press f, as a student would. */
async function enterStudyMode(page) {
  const overlay = page.getByTestId('study-mode-overlay');
  await overlay.waitFor({ state: 'visible' });
  await page.keyboard.press('f');
  await overlay.waitFor({ state: 'hidden' });
}

let browser;
const failures = [];
const watchPageErrors = (page, who) =>
  page.on('pageerror', (error) => failures.push(`${who}: page error: ${error.message}`));

/** One student joins, both pages time the first remote frame, the student leaves; the seat is free again. */
async function round(index, { roomId, teacherPage, teacher, student }) {
  const context = await newContext('student', student.token);
  try {
    const page = await context.newPage();
    watchPageErrors(page, `round ${index} student`);
    await page.goto(`${baseUrl}${meetPath('student', roomId)}`);
    await enterStudyMode(page);
    await waitForPreJoin(page);

    await armFirstFrameWatch(teacherPage, student.name);
    await armFirstFrameWatch(page, teacher.name);
    await armJoinClickClock(page);
    await page.getByRole('button', { name: 'Join meeting' }).click();

    const [studentSaw, teacherSaw, click] = await Promise.all([
      firstFrame(page),
      firstFrame(teacherPage),
      page.evaluate(() => window.__benchJoinClick),
    ]);
    if (!click) throw new Error('the click on "Join meeting" was not seen in the page');
    if (studentSaw.error) throw new Error(`student: ${studentSaw.error}`);
    if (teacherSaw.error) throw new Error(`teacher: ${teacherSaw.error}`);
    const result = {
      studentSawTeacherMs: studentSaw.perf - click.perf,
      teacherSawStudentMs: teacherSaw.wall - click.wall,
      studentVia: studentSaw.via,
      teacherVia: teacherSaw.via,
    };

    await page.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('heading', { name: 'You left the meeting' }).waitFor();
    await waitForSeatReleased(teacherPage, student.name);
    return result;
  } finally {
    await context.close();
  }
}

/** The teacher's page has dropped the student's tile: the server removed them from the room. */
async function waitForSeatReleased(teacherPage, name) {
  await teacherPage.getByRole('group', { name, exact: true }).waitFor({ state: 'detached', timeout: 15_000 });
  await teacherPage.getByRole('group', { name: /\(you\)$/ }).waitFor();
}

const ms = (value) => `${Math.round(value)}`.padStart(6);
const row = (label, result) =>
  `${label.padEnd(34)} ${String(result.n).padStart(3)} ${ms(result.median)} ${ms(result.p90)} ${ms(result.min)} ${ms(
    result.max,
  )}`;

const { baseUrl, post, stop } = await startBenchApp({ defaultPort: 3194 });
const rounds = [];

try {
  const { teacher, student } = benchAccounts();
  const { classId } = await setUpBenchSchool(post, { teacher, student });
  // A room of the student's class (decision 035): only its teachers and students get a token.
  const { roomId } = await post('/api/meetings', { classId }, teacher.token);

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
  });
  console.log(`\nMeetings: join to first remote frame, ${ROUNDS} rounds (+${WARM_UP_ROUNDS} warm-up), room ${roomId}`);
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}; Chromium ${browser.version()} headless, fake camera and microphone`,
  );

  // The teacher joins once and stays in the room for every round.
  const teacherContext = await newContext('teacher', teacher.token);
  const teacherPage = await teacherContext.newPage();
  watchPageErrors(teacherPage, 'teacher');
  await teacherPage.goto(`${baseUrl}${meetPath('teacher', roomId)}`);
  await waitForPreJoin(teacherPage);
  await teacherPage.getByRole('button', { name: 'Join meeting' }).click();
  await teacherPage.getByRole('toolbar', { name: 'Meeting controls' }).waitFor();
  await teacherPage.getByRole('group', { name: `${teacher.name} (you)`, exact: true }).waitFor();

  console.log(`\n${'round'.padEnd(8)} ${'student sees teacher'.padStart(22)} ${'teacher sees student'.padStart(22)}`);
  for (let index = 1 - WARM_UP_ROUNDS; index <= ROUNDS; index += 1) {
    const label = index < 1 ? 'warm-up' : String(index);
    try {
      const result = await round(label, { roomId, teacherPage, teacher, student });
      if (index >= 1) rounds.push(result);
      const via = (name) => (name === 'videoWidth' ? '*' : ' ');
      console.log(
        `${label.padEnd(8)} ${`${result.studentSawTeacherMs.toFixed(0)} ms`.padStart(21)}${via(
          result.studentVia,
        )} ${`${result.teacherSawStudentMs.toFixed(0)} ms`.padStart(21)}${via(result.teacherVia)}`,
      );
    } catch (error) {
      failures.push(`round ${label}: ${error instanceof Error ? error.message : String(error)}`);
      console.log(`${label.padEnd(8)} FAILED`);
      // The next round needs an empty seat; without one the rest would measure a dirty room.
      try {
        await waitForSeatReleased(teacherPage, student.name);
      } catch {
        failures.push(`round ${label}: the student's seat was not released; stopping`);
        break;
      }
    }
  }

  if (rounds.length > 0) {
    const studentSide = summarise(rounds.map((result) => result.studentSawTeacherMs));
    const teacherSide = summarise(rounds.map((result) => result.teacherSawStudentMs));
    const byVideoWidth = rounds.filter((result) => result.studentVia === 'videoWidth').length;
    console.log(
      `\n${'from the student\u2019s click to'.padEnd(34)} ${'n'.padStart(3)} ${'median'.padStart(6)} ${'p90'.padStart(
        6,
      )} ${'min'.padStart(6)} ${'max'.padStart(6)}  (ms)`,
    );
    console.log(row('the student sees the teacher', studentSide));
    console.log(row('the teacher sees the student', teacherSide));
    console.log(
      `(* = seen as videoWidth > 0 in an animation frame before requestVideoFrameCallback fired; ${byVideoWidth} of ${rounds.length} on the student's side)`,
    );
    console.log(JSON.stringify({ rounds: ROUNDS, budgetMs: BUDGET_MS, studentSide, teacherSide, samples: rounds }));
    if (studentSide.median > BUDGET_MS) {
      failures.push(`median join-to-first-remote-frame ${studentSide.median.toFixed(0)} ms > ${BUDGET_MS} ms`);
    }
  }
  await teacherContext.close();
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  await browser?.close();
  await stop();
}

if (failures.length > 0 || rounds.length < ROUNDS) {
  console.error(`\nFAILED:\n- ${[...failures, `${rounds.length} of ${ROUNDS} rounds measured`].join('\n- ')}`);
  process.exit(1);
}
console.log(`\nWithin budget: median join to first remote frame ≤ ${BUDGET_MS} ms (a generous ceiling).`);
