import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ROOT, type BoardStroke } from './class-boards.ts';
import { encodeStateAsPieces } from './board-pieces.ts';

const boardJson = (doc: Y.Doc) => doc.getMap(BOARD_ROOT).toJSON();

/** The first sync in pieces (decision 069): each under the size, in an order a page takes at once. */

const stroke = (id: string, points: number): BoardStroke => ({
  id,
  author: '00000000-0000-4000-8000-000000000000',
  colour: '#112233',
  width: 2,
  points: Array.from({ length: points * 2 }, (_, index) => (index * 7919) % 100_000),
});

/** A board drawn by several people, runs of one person's strokes merged, some erased, a page deleted. */
function drawnBoard() {
  const people = Array.from({ length: 4 }, () => new Y.Doc());
  const sync = () => {
    for (const from of people)
      for (const to of people) if (from !== to) Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)));
  };
  for (const [index, name] of ['a', 'b'].entries()) {
    const page = new Y.Map<unknown>();
    page.set('name', `Page ${name}`);
    page.set('order', index);
    page.set('strokes', new Y.Array<BoardStroke>());
    people[0]!.getMap(BOARD_ROOT).set(name, page);
  }
  sync();
  for (let round = 0; round < 30; round++) {
    for (const [number, person] of people.entries()) {
      const strokes = (person.getMap(BOARD_ROOT).get(round % 3 ? 'a' : 'b') as Y.Map<unknown>).get(
        'strokes',
      ) as Y.Array<BoardStroke>;
      for (let made = 0; made < 1 + (number % 3) * 4; made++)
        strokes.push([stroke(`s${round}-${number}-${made}`, 200)]);
      if (round % 7 === 3 && strokes.length > 2) strokes.delete(1, 2);
    }
    if (round % 5 === 0) sync();
  }
  sync();
  const server = new Y.Doc({ gc: true });
  Y.applyUpdate(server, Y.encodeStateAsUpdate(people[0]!));
  return { server, people };
}

describe('a board in pieces', () => {
  it('makes the same document, each piece under the size, none left pending', () => {
    const { server } = drawnBoard();
    const whole = Y.encodeStateAsUpdate(server);
    const pieces = encodeStateAsPieces(server, new Uint8Array([0]), 8 * 1024);
    expect(pieces.length).toBeGreaterThan(whole.byteLength / (8 * 1024));
    const joiner = new Y.Doc();
    for (const piece of pieces) {
      expect(piece.byteLength).toBeLessThanOrEqual(8 * 1024);
      Y.applyUpdate(joiner, piece);
      expect(joiner.store.pendingStructs).toBeNull();
    }
    expect(boardJson(joiner)).toEqual(boardJson(server));
    expect(Y.encodeStateVector(joiner)).toEqual(Y.encodeStateVector(server));
  });

  it('sends a page that has part of the board only what it lacks, deletions of what it had included', () => {
    const { server, people } = drawnBoard();
    const page = new Y.Doc();
    Y.applyUpdate(page, Y.encodeStateAsUpdate(server));
    // The board moves on: more strokes, and some the page has are erased.
    const strokes = (people[1]!.getMap(BOARD_ROOT).get('a') as Y.Map<unknown>).get('strokes') as Y.Array<BoardStroke>;
    strokes.delete(0, 5);
    for (let made = 0; made < 40; made++) strokes.push([stroke(`late${made}`, 300)]);
    Y.applyUpdate(server, Y.encodeStateAsUpdate(people[1]!, Y.encodeStateVector(server)));
    const pieces = encodeStateAsPieces(server, Y.encodeStateVector(page), 4 * 1024);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) Y.applyUpdate(page, piece);
    expect(boardJson(page)).toEqual(boardJson(server));
  });
});
