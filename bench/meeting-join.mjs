// Meetings (issues 7 and 21), `npm run bench:meeting`, in one run:
//
// 1. Join to first remote frame, in a mesh and then through Janus. A teacher waits in a room;
//    then, round after round, a student opens the meet route in a fresh browser context and
//    clicks "Join meeting", and the student's page times, with performance.now(), the click to
//    the first decoded frame of the teacher's tile (requestVideoFrameCallback on its <video>, or
//    videoWidth > 0 seen in an animation frame, whichever comes first). The other direction too:
//    the teacher's page sees the student's first frame, from the student's click (Date.now() in
//    both pages: one machine, one clock). Then the student leaves and the next round starts once
//    the teacher's page has dropped their tile (the server gave the seat back).
// 2. Rooms of N = 4, 8, 16 (BENCH_QUICK=1: 4 only), mesh and SFU: each browser's upload and
//    Janus's CPU per forwarded stream (bench/meeting-scale.mjs).
//
// Runs the built app as `npm start` would (builds the client when the build is missing or older
// than the sources), on a fresh DATA_DIR, one instance, no STUN/TURN (host candidates only), in
// headless Chromium with a fake camera and microphone; the SFU part with Debian's Janus started
// from deploy/janus (scripts/janus.ts) and the app with JANUS_URL. Without janus installed the
// SFU part is skipped (JANUS_REQUIRED=1: fails). Results: printed, and as JSON in
// bench/results/meeting-<quick|full>-<date>.json (a full run also to bench/results/meeting-latest.json).
//
//   npm run bench:meeting           (node --import tsx bench/meeting-join.mjs)
//   BENCH_ROUNDS=15 BENCH_PORT=3194 CHROMIUM_PATH=/usr/bin/chromium
//   BENCH_QUICK=1 (3 rounds, N = 4, shorter windows)   BENCH_MEETING_SIZES=4,8 (the room sizes)
//   BENCH_PORT is the mesh app's port; Janus's WebSocket listens on BENCH_PORT + 1, the SFU app on + 2.
//
// Exits 1 when a round or a room fails, or a join median is over its budget.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { benchAccounts, benchStudent, registerBenchStudent, setUpBenchSchool, startBenchApp } from './bench-app.mjs';
import { codeVersion } from './code-version.ts';
import { enterStudyMode, meetPath, newMeetingContext, waitForPreJoin } from './meeting-pages.mjs';
import { FAKE_CAMERA_FPS, launchScaleBrowser, measureRoomOf } from './meeting-scale.mjs';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from '../tests/chromium-args.ts';
import { isJanusInstalled, startJanus } from '../scripts/janus.ts';
import { GALLERY_PAGE_SIZE } from '../src/client/features/meetings/gallery.ts';

const IS_QUICK = ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (IS_QUICK ? 3 : 15));
/**
 * Rounds run first and not counted, in case a first join pays for one-time set-up (see
 * docs/benchmarks.md). None in the quick smoke run, which CI keeps short.
 */
const WARM_UP_ROUNDS = IS_QUICK ? 0 : 1;
/** Per topology. The mesh's: a generous ceiling; on one machine, host candidates only, no TURN. Janus's: issue 21. */
const BUDGET_MS = { mesh: 3000, sfu: 1500 };
/** How long a page waits for the first remote frame before the round fails. */
const FRAME_TIMEOUT_MS = 20_000;
const SIZES = (process.env.BENCH_MEETING_SIZES ?? (IS_QUICK ? '4' : '4,8,16')).split(',').map(Number);
/** The scale part's waits: for every page to decode what it should, then for rates to settle, then the window. */
const SCALE_TIMING = IS_QUICK
  ? { settleTimeoutMs: 60_000, steadyMs: 500, windowMs: 2000 }
  : { settleTimeoutMs: 120_000, steadyMs: 5000, windowMs: 10_000 };
const PORT = Number(process.env.BENCH_PORT ?? 3194);
const JANUS_RTP_PORTS = '42000-42999';
const root = fileURLToPath(new URL('..', import.meta.url));

if (!SIZES.every((size) => Number.isInteger(size) && size >= 2 && size <= 50)) {
  console.error('BENCH_MEETING_SIZES must be whole numbers of people from 2 to 50, e.g. 4,8,16');
  process.exit(1);
}

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
  return { n: sorted.length, median: at(0.5), p90: at(0.9), min: sorted[0], max: sorted.at(-1) };
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

const failures = [];
const watchPageErrors = (page, who) =>
  page.on('pageerror', (error) => failures.push(`${who}: page error: ${error.message}`));
const log = (line) => console.log(line);
const runStartedAt = performance.now();
const sinceStart = () => `${Math.round((performance.now() - runStartedAt) / 1000)} s into the run`;

/** One student joins, both pages time the first remote frame, the student leaves; the seat is free again. */
async function round(index, { browser, baseUrl, roomId, teacherPage, teacher, student }) {
  const context = await newMeetingContext(browser, baseUrl, { role: 'student', token: student.token });
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
const TOPOLOGY_NAME = { mesh: 'mesh (browser to browser)', sfu: 'through Janus' };

/**
 * Join to first remote frame on `app`, in a new room of the class: the teacher joins once and
 * stays; ROUNDS rounds (+ warm-up) of the student joining and leaving. Answers the summaries
 * (undefined when no round was measured); failures go to `failures`.
 */
async function measureJoins({ topology, app, classId, teacher, student }) {
  const budgetMs = BUDGET_MS[topology];
  const { baseUrl, post } = app;
  // A room of the student's class (decision 035): only its teachers and students get a token.
  const { roomId } = await post('/api/meetings', { classId }, teacher.token);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
  });
  const rounds = [];
  try {
    log(
      `\nMeetings ${TOPOLOGY_NAME[topology]}: join to first remote frame, ${ROUNDS} rounds (+${WARM_UP_ROUNDS} warm-up), room ${roomId} (${sinceStart()})`,
    );
    log(
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}; Chromium ${browser.version()} headless, fake camera and microphone`,
    );

    // The teacher joins once and stays in the room for every round.
    const teacherContext = await newMeetingContext(browser, baseUrl, { role: 'teacher', token: teacher.token });
    const teacherPage = await teacherContext.newPage();
    watchPageErrors(teacherPage, `${topology} teacher`);
    await teacherPage.goto(`${baseUrl}${meetPath('teacher', roomId)}`);
    await waitForPreJoin(teacherPage);
    await teacherPage.getByRole('button', { name: 'Join meeting' }).click();
    await teacherPage.getByRole('toolbar', { name: 'Meeting controls' }).waitFor();
    await teacherPage.getByRole('group', { name: `${teacher.name} (you)`, exact: true }).waitFor();

    log(`\n${'round'.padEnd(8)} ${'student sees teacher'.padStart(22)} ${'teacher sees student'.padStart(22)}`);
    for (let index = 1 - WARM_UP_ROUNDS; index <= ROUNDS; index += 1) {
      const label = index < 1 ? 'warm-up' : String(index);
      try {
        const result = await round(label, { browser, baseUrl, roomId, teacherPage, teacher, student });
        if (index >= 1) rounds.push(result);
        const via = (name) => (name === 'videoWidth' ? '*' : ' ');
        log(
          `${label.padEnd(8)} ${`${result.studentSawTeacherMs.toFixed(0)} ms`.padStart(21)}${via(
            result.studentVia,
          )} ${`${result.teacherSawStudentMs.toFixed(0)} ms`.padStart(21)}${via(result.teacherVia)}`,
        );
      } catch (error) {
        failures.push(`${topology} round ${label}: ${error instanceof Error ? error.message : String(error)}`);
        log(`${label.padEnd(8)} FAILED`);
        // The next round needs an empty seat; without one the rest would measure a dirty room.
        try {
          await waitForSeatReleased(teacherPage, student.name);
        } catch {
          failures.push(`${topology} round ${label}: the student's seat was not released; stopping`);
          break;
        }
      }
    }
    await teacherContext.close();
  } finally {
    await browser.close();
  }
  if (rounds.length < ROUNDS) failures.push(`${topology}: ${rounds.length} of ${ROUNDS} rounds measured`);
  if (rounds.length === 0) return undefined;

  const studentSide = summarise(rounds.map((result) => result.studentSawTeacherMs));
  const teacherSide = summarise(rounds.map((result) => result.teacherSawStudentMs));
  const byVideoWidth = rounds.filter((result) => result.studentVia === 'videoWidth').length;
  log(
    `\n${'from the student\u2019s click to'.padEnd(34)} ${'n'.padStart(3)} ${'median'.padStart(6)} ${'p90'.padStart(
      6,
    )} ${'min'.padStart(6)} ${'max'.padStart(6)}  (ms)`,
  );
  log(row('the student sees the teacher', studentSide));
  log(row('the teacher sees the student', teacherSide));
  log(
    `(* = seen as videoWidth > 0 in an animation frame before requestVideoFrameCallback fired; ${byVideoWidth} of ${rounds.length} on the student's side)`,
  );
  if (studentSide.median > budgetMs) {
    failures.push(
      `${topology}: median join-to-first-remote-frame ${studentSide.median.toFixed(0)} ms > ${budgetMs} ms`,
    );
  }
  return { rounds: ROUNDS, budgetMs, studentSide, teacherSide, samples: rounds };
}

/** Starts Janus from deploy/janus on BENCH_PORT + 1 with a fresh secret; undefined when not installed. */
async function startBenchJanus() {
  if (!isJanusInstalled()) {
    if (process.env.JANUS_REQUIRED === '1') {
      failures.push('janus is not installed (JANUS_REQUIRED=1): apt-get install janus');
    } else {
      log('\nJanus is not installed (apt-get install janus): the joins through Janus and the SFU rooms are skipped.');
    }
    return undefined;
  }
  const apiSecret = randomBytes(18).toString('hex');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'studyhall-bench-janus-'));
  const janus = await startJanus(
    { port: PORT + 1, host: '127.0.0.1', apiSecret, rtpPortRange: JANUS_RTP_PORTS },
    folder,
  );
  return {
    janus,
    env: { JANUS_URL: janus.url, JANUS_API_SECRET: apiSecret },
    stop: async () => {
      await janus.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The app of one topology on `port` (with `janus`'s JANUS_URL for 'sfu') and its school: a
 * teacher, the joins' student, and students for the largest room, registered through the API.
 */
async function prepareTopology(topology, port, janus) {
  const largest = Math.max(...SIZES);
  const app = await startBenchApp({
    port,
    env: {
      // The default room holds 8; larger rooms need the cap raised (it only caps).
      MEETING_ROOM_SIZE: largest > 8 ? String(largest) : '',
      // Every student registers and signs in from 127.0.0.1.
      REGISTRATION_LIMIT_PER_IP: '1000',
      SIGN_IN_LIMIT_PER_IP: '1000',
      ...(janus?.env ?? {}),
    },
  });
  try {
    const { teacher, student } = benchAccounts();
    const { classId, joinCode } = await setUpBenchSchool(app.post, { teacher, student });
    const suffix = `${Date.now().toString(36)}-${topology}`;
    const students = await Promise.all(
      Array.from({ length: largest - 1 }, (_, index) =>
        registerBenchStudent(app.post, benchStudent(suffix, index + 1), joinCode),
      ),
    );
    return { topology, app, janus, classId, teacher, student, students };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

// ---- the report ------------------------------------------------------------------------------

const kBps = (value) => (value === undefined ? '–' : `${value.toFixed(1)}`);
const percent = (value) => (value === undefined || value === null ? '–' : `${value}`);

/** The mesh-vs-SFU table, one line per topology and size. */
function printRooms(rooms) {
  log('\nUpload per browser (kB/s, getStats outbound-rtp bytesSent; mean over the room), Janus CPU (% of one core)');
  log(
    `${'topology'.padEnd(8)} ${'N'.padStart(3)} ${'upload'.padStart(8)} ${'video'.padStart(8)} ${'again'.padStart(6)} ${'sent'.padStart(5)} ` +
      `${'recv'.padStart(5)} ${'fps'.padStart(5)} ${'janus%'.padStart(7)} ${'fwd'.padStart(5)} ${'%/fwd'.padStart(6)} ${'µs/pkt'.padStart(6)} ` +
      `${'chrome%'.padStart(8)} ${'app%'.padStart(6)} ${'busy%'.padStart(6)} ${'settled'.padEnd(8)} encoders limited by`,
  );
  for (const room of rooms) {
    const sent = Math.max(...room.sentVideoStreamsPerPage);
    const received = Math.min(...room.receivedVideoStreamsPerPage);
    log(
      `${room.topology.padEnd(8)} ${String(room.people).padStart(3)} ${kBps(room.uploadKBps.mean).padStart(8)} ` +
        `${kBps(room.uploadVideoKBps.mean).padStart(8)} ${kBps(room.uploadRetransmittedKBps.mean).padStart(6)} ${String(sent).padStart(5)} ${`${received}/${room.expectedVideoStreamsPerPage}`.padStart(5)} ` +
        `${String(room.receivedFps).padStart(5)} ${percent(room.cpu.janusPercent).padStart(7)} ` +
        `${String(room.forwardedStreams?.total ?? '–').padStart(5)} ${percent(room.janusPercentPerForwardedStream).padStart(6)} ` +
        `${percent(room.janusMicrosecondsPerForwardedPacket).padStart(6)} ` +
        `${String(room.cpu.browsersPercent).padStart(8)} ${String(room.cpu.appPercent).padStart(6)} ` +
        `${String(room.cpu.machineBusyPercent).padStart(6)} ${(room.isSettled ? 'yes' : `no (${room.decodingAtSettle.join(' ')})`).padEnd(8)} ` +
        Object.entries(room.sentVideoLimitedBy)
          .map(([reason, count]) => `${reason} ${count}`)
          .join(', '),
    );
  }
  log(
    '(again: of the upload, retransmissions and bandwidth probes; sent: most outbound video streams with bytes on one page; recv: fewest cameras decoded on one page / expected; ' +
      `fps: frames decoded per second per camera, the fake camera makes ${FAKE_CAMERA_FPS}; fwd: streams Janus forwarded, ` +
      'video + audio received by every page; µs/pkt: Janus CPU per packet it forwarded; busy%: the whole machine, both cores, others included; ' +
      'encoders limited by: qualityLimitationReason of every outbound video stream)',
  );
}

function loadAverage() {
  return os.loadavg().map((load) => Math.round(load * 100) / 100);
}

const startedAt = new Date();
const loadAverageAtStart = loadAverage();
const report = {
  kind: 'studyhall-meeting-bench',
  mode: IS_QUICK ? 'quick' : 'full',
  date: startedAt.toISOString(),
  code: codeVersion(),
  command: `${IS_QUICK ? 'BENCH_QUICK=1 ' : ''}npm run bench:meeting`,
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart,
  },
  settings: {
    rounds: ROUNDS,
    warmUpRounds: WARM_UP_ROUNDS,
    budgetsMs: BUDGET_MS,
    sizes: SIZES,
    timing: SCALE_TIMING,
    fakeCameraFps: FAKE_CAMERA_FPS,
    galleryPageSize: GALLERY_PAGE_SIZE.wide,
  },
  joins: {},
  rooms: [],
};

// Both apps (and Janus) start and get their schools at once; they are measured one after the
// other, the idle one costing next to nothing.
let janus;
const prepared = [];
try {
  const janusStarting = startBenchJanus();
  const outcomes = await Promise.allSettled([
    prepareTopology('mesh', PORT),
    janusStarting.then((started) => started && prepareTopology('sfu', PORT + 2, started)),
  ]);
  janus = await janusStarting.catch(() => undefined);
  log(`\nApps${janus ? ' and Janus' : ''} started, schools set up (${sinceStart()})`);
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') failures.push(outcome.reason?.message ?? String(outcome.reason));
    else if (outcome.value) prepared.push(outcome.value);
  }
  for (const topology of prepared) report.joins[topology.topology] = await measureJoins(topology);

  // Each size through Janus and then in the mesh, one right after the other: the machine is
  // shared, and a pair measured close together meets about the same load from outside.
  log(`\nMeetings of ${SIZES.join(', ')} people (${sinceStart()})`);
  const browser = await launchScaleBrowser();
  try {
    for (const n of SIZES) {
      for (const topology of [...prepared].reverse()) {
        const room = await measureRoomOf(n, {
          ...topology,
          browser,
          janusPid: topology.janus?.janus.child.pid,
          timing: SCALE_TIMING,
          failures,
          log,
        });
        if (room) report.rooms.push(room);
      }
    }
  } finally {
    await browser.close();
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  for (const topology of prepared) await topology.app.stop();
  await janus?.stop();
}

const bySize = (a, b) => a.people - b.people || a.topology.localeCompare(b.topology);
printRooms([...report.rooms].sort(bySize));
for (const [topology, joins] of Object.entries(report.joins)) {
  if (joins) {
    log(
      `join to first remote frame, ${TOPOLOGY_NAME[topology]}: median ${Math.round(joins.studentSide.median)} ms, ` +
        `p90 ${Math.round(joins.studentSide.p90)} ms (budget ${joins.budgetMs} ms)`,
    );
  }
}

report.machine.loadAverageAtEnd = loadAverage();
report.seconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
report.failures = failures;
const resultsDir = path.join(root, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(
  resultsDir,
  `meeting-${report.mode}-${startedAt.toISOString().replaceAll(':', '-').slice(0, 19)}.json`,
);
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
// The committed record: the latest full run with every size, both topologies, nothing failed.
const isRecord =
  !IS_QUICK && !process.env.BENCH_MEETING_SIZES && report.joins.sfu !== undefined && failures.length === 0;
if (isRecord) copyFileSync(file, path.join(resultsDir, 'meeting-latest.json'));
log(
  `\nResults: ${path.relative(root, file)} (${report.seconds} s in all, load ${report.machine.loadAverageAtEnd.join(' ')})`,
);

if (failures.length > 0) {
  console.error(`\nFAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
log(
  `\nWithin budget: median join to first remote frame ≤ ${BUDGET_MS.mesh} ms in the mesh (a generous ceiling)` +
    (report.joins.sfu ? `, ≤ ${BUDGET_MS.sfu} ms through Janus.` : '.'),
);
