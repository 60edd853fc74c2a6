import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BoardRefusal } from './board-model.ts';

/**
 * What the class board (issue 35) says of a change the server refused, by code: descriptors,
 * worded with `i18n._` where shown (a `t` handed around as a parameter is not one the macro
 * rewrites, and shows nothing). A code without words of its own (CLIENT_TAKEN) says plainly that
 * the change was not kept.
 */
const REFUSAL_TEXTS: Readonly<Partial<Record<BoardRefusal['code'], MessageDescriptor>>> = {
  NO_PEN: msg`You do not hold the pen: your change was not kept.`,
  NOT_A_TEACHER: msg`Only teachers add, rename, move or delete pages.`,
  BOARD_FULL: msg`The board is full: erase some strokes to make room.`,
  TOO_LARGE: msg`That change is too large to send at once: it was not kept.`,
  PAGES_FULL: msg`The board has the most pages it can hold: delete one first.`,
};
const REFUSED_TEXT = msg`The board did not keep your change.`;

export function refusalText(code: BoardRefusal['code']): MessageDescriptor {
  return REFUSAL_TEXTS[code] ?? REFUSED_TEXT;
}
