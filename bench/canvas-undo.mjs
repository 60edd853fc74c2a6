// Whiteboard undo/redo budget (decision 011): with 5,000 strokes, an undo or a
// redo redraws in ≤ 16 ms median in headless Chromium, and the stored drawing
// survives a reload. Runs the built app as `npm start` would (builds the client
// when the build is missing or older than the sources), signs up a teacher,
// stores 5,000 generated strokes in the format the whiteboard writes, opens
// /dashboard/teacher/canvas and times Undo/Redo clicks in the page: from the
// click to the pixels being on the canvas (a 1-pixel getImageData forces the
// canvas to finish drawing), one sample per animation frame.
//
//   npm run bench:canvas            (node --import tsx bench/canvas-undo.mjs)
//   BENCH_PORT=3193 CHROMIUM_PATH=/usr/bin/chromium
//   BENCH_QUICK=1 (the CI smoke): the 2× screen only, the one with 4× the pixels per redraw
//
// Exits 1 when a median is over budget or the reload check fails.
import os from 'node:os';
import { chromium } from 'playwright-core';
import { BENCH_SETUP_CODE, startBenchApp } from './bench-app.mjs';
import { drawingStorageKey, serialiseHistory } from '../src/client/features/canvas/canvas-storage.ts';
import { BRUSH_SIZE_CHOICES } from '../src/client/features/canvas/brush.ts';
import { EMPTY_HISTORY, addStroke, appendPoint } from '../src/client/features/canvas/stroke-history.ts';
import { CHROMIUM_ARGS } from '../tests/chromium-args.ts';

const STROKES = 5000;
const SAMPLES = 60;
const DEEP_UNDOS = 400;
const BUDGET_MS = 16;
const VIEWPORT = { width: 1280, height: 800 };
const IS_QUICK = ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
// 1×: a desktop screen; 2×: a high-DPI one (4× the pixels per redraw, fewer checkpoints in the memory budget).
const DEVICE_SCALE_FACTORS = IS_QUICK ? [2] : [1, 2];

/** 5,000 strokes like hand drawing: random walks of 8–24 points over a 1,000 × 560 px area, some of them erasing. */
function generateHistory() {
  let seed = 20261121;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const colours = ['#3b3b3b', '#e11d48', '#2563eb', '#16a34a', '#ffffff'];
  let history = EMPTY_HISTORY;
  for (let index = 0; index < STROKES; index += 1) {
    const points = [];
    let x = random() * 1000;
    let y = random() * 560;
    let heading = random() * Math.PI * 2;
    const length = 8 + Math.floor(random() * 17);
    for (let step = 0; step < length; step += 1) {
      appendPoint(points, x, y, step === length - 1);
      heading += (random() - 0.5) * 0.8;
      x = Math.min(1000, Math.max(0, x + Math.cos(heading) * (4 + random() * 8)));
      y = Math.min(560, Math.max(0, y + Math.sin(heading) * (4 + random() * 8)));
    }
    const colour = colours[Math.floor(random() * colours.length)];
    const size = BRUSH_SIZE_CHOICES[Math.floor(random() * BRUSH_SIZE_CHOICES.length)];
    history = addStroke(history, { colour, size, points });
  }
  return history;
}

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
  return { n: sorted.length, median: at(0.5), p95: at(0.95), max: sorted.at(-1) };
}

/** Clicks a toolbar button `count` times, one per animation frame, timing click → pixels on the canvas. */
function timeClicks(page, name, count) {
  return page.evaluate(
    async ([buttonName, times]) => {
      const button = [...document.querySelectorAll('button')].find((candidate) => candidate.title === buttonName);
      const canvas = document.querySelector('[data-testid="whiteboard"]');
      const context = canvas.getContext('2d');
      const samples = [];
      for (let index = 0; index < times; index += 1) {
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        const start = performance.now();
        button.click();
        context.getImageData(0, 0, 1, 1);
        samples.push(performance.now() - start);
      }
      return samples;
    },
    [name, count],
  );
}

/** A hash of every pixel of the board: equal hashes, equal pictures. */
function boardHash(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="whiteboard"]');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0x811c9dc5;
    for (let index = 0; index < data.length; index += 1) hash = Math.imul(hash ^ data[index], 0x01000193);
    return `${canvas.width}x${canvas.height}:${(hash >>> 0).toString(16)}`;
  });
}

async function openBoard(page) {
  const started = Date.now();
  await page.goto(`${baseUrl}/dashboard/teacher/canvas`);
  await page.getByTestId('whiteboard').waitFor();
  await page.waitForFunction(() => {
    const canvas = document.querySelector('[data-testid="whiteboard"]');
    const undoButton = [...document.querySelectorAll('button')].find((button) => button.title === 'Undo');
    return canvas.width > 0 && undoButton && undoButton.getAttribute('aria-disabled') !== 'true';
  });
  return Date.now() - started;
}

let browser;
const failures = [];

const storedCursor = (page, key) =>
  page.evaluate((storageKey) => JSON.parse(localStorage.getItem(storageKey)).cursor, key);

const row = (label, result) =>
  `${label.padEnd(36)} ${String(result.n).padStart(4)}  ${result.median.toFixed(2).padStart(7)}  ${result.p95
    .toFixed(2)
    .padStart(7)}  ${result.max.toFixed(2).padStart(7)}`;

/** One run at a device scale factor: open the stored drawing, time undo/redo, reload and compare. */
async function measure(deviceScaleFactor, key, stored, token) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor });
  const page = await context.newPage();
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  await page.goto(baseUrl);
  await page.evaluate(
    ([storageKey, drawing, bearer]) => {
      localStorage.setItem('token', bearer);
      localStorage.setItem('userType', 'teacher');
      localStorage.setItem(storageKey, drawing);
    },
    [key, stored, token],
  );
  const firstOpenMs = await openBoard(page);
  const size = await page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="whiteboard"]');
    return `${canvas.width}×${canvas.height} device px`;
  });

  await timeClicks(page, 'Undo', 5); // warm-up
  await timeClicks(page, 'Redo', 5);
  const undo = summarise(await timeClicks(page, 'Undo', SAMPLES));
  const redo = summarise(await timeClicks(page, 'Redo', SAMPLES));
  const deepUndo = summarise(await timeClicks(page, 'Undo', DEEP_UNDOS));
  const before = await boardHash(page);
  const cursorShown = STROKES - DEEP_UNDOS;
  await page.waitForFunction(
    ([storageKey, cursor]) => JSON.parse(localStorage.getItem(storageKey)).cursor === cursor,
    [key, cursorShown],
  );
  const reopenMs = await openBoard(page);
  const after = await boardHash(page);
  const cursorAfter = await storedCursor(page, key);
  await context.close();

  console.log(`\ndevicePixelRatio ${deviceScaleFactor}, board ${size}`);
  console.log(
    `${'operation'.padEnd(36)} ${'n'.padStart(4)}  ${'median'.padStart(7)}  ${'p95'.padStart(7)}  ${'max'.padStart(7)}  (ms)`,
  );
  console.log(row('undo (from the latest)', undo));
  console.log(row('redo', redo));
  console.log(row(`undo ${DEEP_UNDOS} more (past the checkpoints)`, deepUndo));
  console.log(`open with ${STROKES} stored strokes: ${firstOpenMs} ms; reopen after the undos: ${reopenMs} ms`);
  console.log(
    `after reload: stored cursor ${cursorAfter} (expected ${cursorShown}); pixels ${after === before ? 'identical' : 'DIFFERENT'}`,
  );

  const label = `${deviceScaleFactor}×`;
  if (undo.median > BUDGET_MS) failures.push(`${label} undo median ${undo.median.toFixed(2)} ms > ${BUDGET_MS} ms`);
  if (redo.median > BUDGET_MS) failures.push(`${label} redo median ${redo.median.toFixed(2)} ms > ${BUDGET_MS} ms`);
  if (cursorAfter !== cursorShown) failures.push(`${label} the stored cursor is ${cursorAfter}, not ${cursorShown}`);
  if (after !== before) failures.push(`${label} the drawing after a reload differs from the one before it`);
  return { deviceScaleFactor, size, undo, redo, deepUndo, firstOpenMs, reopenMs, reloadIdentical: after === before };
}

// Chromium starts while the app does: each waits mostly on a process of its own.
const launching = chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
const { baseUrl, post, stop } = await startBenchApp({ defaultPort: 3193 });

try {
  const teacher = {
    name: 'Bench Teacher',
    subject: 'Art',
    email: `bench-${Date.now()}@example.com`,
    password: 'a long bench password',
  };
  // The bench's fresh school is set up by its teacher, the first run's administrator (decision 030).
  const token = await post('/api/school/setup', {
    setupCode: BENCH_SETUP_CODE,
    schoolName: 'Bench School',
    ...teacher,
  });
  const profile = await post('/api/teacher/get-teacher-by-id', {}, token);
  const key = drawingStorageKey('teacher', profile._id);
  const stored = serialiseHistory(generateHistory());

  browser = await launching;
  const results = [];
  console.log(`\nWhiteboard undo/redo with ${STROKES} strokes (${(stored.length / 1024).toFixed(0)} KB stored)`);
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}; Chromium ${browser.version()} headless`,
  );
  for (const deviceScaleFactor of DEVICE_SCALE_FACTORS) {
    results.push(await measure(deviceScaleFactor, key, stored, token));
  }
  console.log(JSON.stringify({ strokes: STROKES, results }));
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  await (browser ?? (await launching.catch(() => undefined)))?.close();
  await stop();
}

if (failures.length > 0) {
  console.error(`\nFAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(`\nWithin budget: undo and redo medians ≤ ${BUDGET_MS} ms; the drawing survives a reload.`);
