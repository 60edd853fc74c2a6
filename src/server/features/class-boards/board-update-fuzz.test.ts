import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ROOT, boardStrokeSchema, type BoardStroke } from '#shared/class-boards';
import { seededRandom } from '../../testing/seeded-random.ts';
import { applyBoardUpdate, boardDocFrom, boardJson, type BoardSender } from './board-document.ts';
import { strokeBy } from './board-test-client.ts';

/**
 * Issue 35 point 6, many inputs rather than a few: thousands of random byte strings and of valid
 * updates with bytes flipped or cut, each applied by the server's check (`applyBoardUpdate`) to a
 * board. None may throw; one it accepts must leave a board of the schema (every stroke whole and
 * the student's own) whose accepted `diff`, stored after the board, makes the same board again.
 * A seeded generator: a failure names its case and comes back on the next run.
 */
const CASES = 2_000;
const TEACHER = '5c025607-e0df-4d86-8398-fa54308adaa5';
const STUDENT: BoardSender = { id: '0b6f3c1e-8a9d-4e2f-b7c4-1d2e3f4a5b6c', teacher: false };

/** A board with one page of two teacher's strokes, as stored (one update). */
function storedBoard(): Uint8Array {
  const doc = new Y.Doc();
  const page = new Y.Map<unknown>();
  page.set('name', 'Page 1');
  page.set('order', 1);
  const strokes = new Y.Array<BoardStroke>();
  strokes.push([strokeBy(TEACHER, 20, 't1'), strokeBy(TEACHER, 20, 't2')]);
  page.set('strokes', strokes);
  doc.getMap(BOARD_ROOT).set('p1', page);
  return Y.encodeStateAsUpdate(doc);
}

/** The student's stroke on that page, as their page sends it (an update over the stored board). */
function studentsStroke(stored: Uint8Array): Uint8Array {
  const doc = boardDocFrom([stored]);
  const before = Y.encodeStateVector(doc);
  const strokes = (doc.getMap(BOARD_ROOT).get('p1') as Y.Map<unknown>).get('strokes') as Y.Array<BoardStroke>;
  strokes.push([strokeBy(STUDENT.id, 20, 's1')]);
  return Y.encodeStateAsUpdate(doc, before);
}

/** Random bytes, or the valid update with one to three bytes changed, or cut short. */
function caseOf(random: () => number, valid: Uint8Array): Uint8Array {
  const kind = random();
  if (kind < 0.4) return Uint8Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256));
  if (kind < 0.85) {
    const changed = valid.slice();
    const flips = 1 + Math.floor(random() * 3);
    for (let flip = 0; flip < flips; flip += 1) {
      changed[Math.floor(random() * changed.length)] = Math.floor(random() * 256);
    }
    return changed;
  }
  return valid.slice(0, Math.floor(random() * valid.length));
}

describe('the server’s check of a board update, under random and damaged input', () => {
  it(`never throws; what it accepts is a board of the schema that its diff makes again (${CASES} cases)`, () => {
    const stored = storedBoard();
    const valid = studentsStroke(stored);
    const random = seededRandom(35).next;
    const outcomes = { accepted: 0, refused: 0 };
    for (let index = 0; index < CASES; index += 1) {
      const update = caseOf(random, valid);
      const doc = boardDocFrom([stored]);
      let outcome: ReturnType<typeof applyBoardUpdate>;
      try {
        outcome = applyBoardUpdate(doc, update, STUDENT);
      } catch (error) {
        throw new Error(`case ${index} threw: ${String(error)}`, { cause: error });
      }
      if (!outcome.ok) {
        outcomes.refused += 1;
        continue;
      }
      outcomes.accepted += 1;
      const board = boardJson(doc) as Record<string, { strokes: unknown[] }>;
      const strokes = Object.values(board).flatMap((page) => page.strokes);
      for (const stroke of strokes) {
        expect(boardStrokeSchema.safeParse(stroke).success, `case ${index}: a stroke off the schema`).toBe(true);
        const { author, id } = stroke as BoardStroke;
        expect(author === STUDENT.id || ['t1', 't2'].includes(id), `case ${index}: another's stroke added`).toBe(true);
      }
      expect(boardJson(boardDocFrom([stored, outcome.diff])), `case ${index}: the diff`).toEqual(board);
    }
    // Both kinds of answer were exercised (a flip in a stroke's coordinates can still be a valid stroke).
    expect(outcomes.refused).toBeGreaterThan(CASES / 2);
    console.info(`board update fuzz: ${outcomes.accepted} accepted, ${outcomes.refused} refused of ${CASES}`);
  });
});
