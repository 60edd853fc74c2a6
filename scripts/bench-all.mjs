// `npm run bench`: every budgeted benchmark, one after the other, each failing the whole on its own
// failure. With BENCH_QUICK=1 (CI's smoke, decision 067) the meeting bench runs alone first (its
// quick join through Janus binds a budget with a third to spare), then the others in two lanes
// side by side: their quick runs bind no timing budget but the canvas's (undo and redo medians
// under 16 ms; ~2 ms measured) and prove the suite runs (no failed request, no lost hand-in, a
// healthy server). One after the other they left the second core idle for most of two minutes
// (issue 36: the smoke under 3 minutes). A full run, the figures of record, stays one at a time.
//
// Each bench's output is printed whole when it ends (two lanes' lines would interleave), under its
// name and time; the run ends with the time of each and fails if any failed.
import { spawn } from 'node:child_process';

/** Runs alone, first, in quick mode too (a full run takes all of them one at a time, in this order). */
const ALONE = ['bench:meeting'];
/**
 * Quick mode's lanes, about equal in time. Ports: json-attack and gradebook both default to 3421,
 * so they share a lane; the others' ranges (api 3401+, sign-in 3411+, hand-in 3481, live 3741+,
 * board 3761+, canvas 3193) are apart.
 */
const LANES = [
  ['bench:api', 'bench:json-attack', 'bench:gradebook'],
  ['bench:canvas', 'bench:sign-in', 'bench:handin', 'bench:board', 'bench:live'],
];
const isQuick = ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
/**
 * Side by side, the benches keep their own default ports and result files: one BENCH_PORT or
 * BENCH_OUT for all would put two lanes on one port or one file.
 */
const benchEnvironment = { ...process.env };
if (isQuick) {
  for (const name of ['BENCH_PORT', 'BENCH_OUT']) {
    if (benchEnvironment[name] === undefined) continue;
    process.stdout.write(`${name} is left out in quick mode: the lanes run side by side on their own defaults\n`);
    delete benchEnvironment[name];
  }
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];

/** Runs one bench script; resolves with its status, its output kept until it ends when `buffered`. */
function runBench(script, { buffered }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      env: benchEnvironment,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const chunks = [];
    if (buffered) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    } else {
      process.stdout.write(`\n--- ${script} ---\n`);
    }
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const ok = code === 0;
      if (buffered) {
        process.stdout.write(`\n--- ${script} (${seconds} s, ${ok ? 'passed' : 'FAILED'}) ---\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      results.push({ script, seconds, ok, why: ok ? '' : signal ? `signal ${signal}` : `exit ${code}` });
      resolve(ok);
    });
  });
}

const started = Date.now();
if (isQuick) {
  for (const script of ALONE) await runBench(script, { buffered: false });
  await Promise.all(
    LANES.map(async (lane) => {
      for (const script of lane) await runBench(script, { buffered: true });
    }),
  );
} else {
  for (const script of [...ALONE, ...LANES.flat()]) await runBench(script, { buffered: false });
}

process.stdout.write(
  `\n--- the benches${isQuick ? ' (quick: the meeting alone, then two lanes side by side)' : ''} ---\n`,
);
for (const { script, seconds, ok, why } of results) {
  process.stdout.write(
    `${ok ? 'passed' : 'FAILED'}  ${script.padEnd(18)} ${String(seconds).padStart(6)} s${why ? `  (${why})` : ''}\n`,
  );
}
process.stdout.write(`all: ${Math.round((Date.now() - started) / 1000)} s\n`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
