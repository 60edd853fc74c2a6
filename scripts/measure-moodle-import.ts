/**
 * `npm run measure:moodle-import` (issue 30 point 4, decision 043): runs the GIFT and Aiken
 * readers on the files of a folder and compares what they import with the folder's
 * oracle.json, which says, question by question (by the line it starts on), what Moodle's own
 * reader makes of it and how Moodle scores it. Prints the questions in out of the questions
 * Moodle takes, why the others stayed out, and how many came in wrong (scored or worded
 * otherwise than Moodle would).
 *
 * The folder is tests/fixtures/moodle/ (our own files) unless one is named:
 * `npm run measure:moodle-import -- /path` or `MOODLE_SAMPLES_DIR=/path npm run measure:moodle-import`,
 * e.g. a folder holding Moodle's original sample files with an oracle.json written for them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareWithMoodle, type MoodleOracle } from '../src/shared/moodle-view.ts';

const folder = path.resolve(
  process.argv[2] ?? process.env.MOODLE_SAMPLES_DIR ?? path.join(import.meta.dirname, '../tests/fixtures/moodle'),
);
const oraclePath = path.join(folder, 'oracle.json');
if (!existsSync(oraclePath)) {
  console.error(
    `${oraclePath} is missing: write what Moodle makes of each question there (see tests/fixtures/moodle).`,
  );
  process.exit(1);
}
const oracle = JSON.parse(readFileSync(oraclePath, 'utf8')) as MoodleOracle;
const files = readdirSync(folder)
  .filter((name) => name in oracle)
  .map((name) => ({ name, text: readFileSync(path.join(folder, name), 'utf8') }));
for (const name of Object.keys(oracle).filter((name) => !files.some((file) => file.name === name))) {
  console.error(`oracle.json names ${name}, which is not in ${folder}`);
}
const { total, imported, wrong, unreported, reasons } = compareWithMoodle(files, oracle);

const percent = (count: number) => `${((100 * count) / total).toFixed(1)} %`;
console.log(`${folder}`);
console.log(`Questions in: ${imported} of ${total} (${percent(imported)}); wrong: ${wrong.length}`);
for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  left out ${count}: ${reason}`);
for (const line of wrong) console.log(`  wrong: ${line}`);
for (const line of unreported) console.log(`  left out without a reason at its line: ${line}`);
