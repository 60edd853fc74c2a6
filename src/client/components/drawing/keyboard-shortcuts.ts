/** Input types that take no typed text: Ctrl/Cmd+Z there has nothing of the field's own to undo. */
const NON_TEXT_INPUT_TYPES = new Set([
  'button',
  'checkbox',
  'color',
  'file',
  'hidden',
  'image',
  'radio',
  'range',
  'reset',
  'submit',
]);

/** Dialogs own their keys: a confirmation, the study-mode overlay. */
const DIALOG_SELECTOR = 'dialog, [role="dialog"], [role="alertdialog"]';

type ElementLike = {
  tagName?: unknown;
  type?: unknown;
  isContentEditable?: unknown;
  closest?: (selector: string) => unknown;
};

const asElement = (target: unknown): ElementLike | null =>
  typeof target === 'object' && target !== null ? target : null;

/**
 * Whether the keyboard focus is in a place that edits text (a text-like
 * input, a textarea, contenteditable), where Ctrl/Cmd+Z is the browser's own
 * undo of typing. The colour field, a size menu or a button are not.
 */
export function isTextEntry(target: unknown): boolean {
  const element = asElement(target);
  if (!element) return false;
  if (element.isContentEditable === true || element.tagName === 'TEXTAREA') return true;
  return element.tagName === 'INPUT' && !NON_TEXT_INPUT_TYPES.has(String(element.type).toLowerCase());
}

export type ShortcutKeyEvent = Pick<
  KeyboardEvent,
  'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'defaultPrevented'
> & {
  /** The focused element (any object: tests pass stand-ins). */
  target: unknown;
};

/**
 * What a key press does to the whiteboard: Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z
 * and Ctrl+Y redo. Nothing while typing text, from inside a dialog, or when
 * the board is behind a modal overlay (an `inert` ancestor, as the study mode
 * sets while it waits for full screen): the person cannot see what changes.
 */
export function whiteboardShortcut(
  event: ShortcutKeyEvent,
  board: { closest(selector: string): unknown } | null,
): 'undo' | 'redo' | null {
  if (!board || event.defaultPrevented || event.altKey || isTextEntry(event.target)) return null;
  const key = event.key.toLowerCase();
  let action: 'undo' | 'redo' | null = null;
  if ((event.ctrlKey || event.metaKey) && key === 'z') action = event.shiftKey ? 'redo' : 'undo';
  else if (event.ctrlKey && !event.shiftKey && key === 'y') action = 'redo';
  if (!action || board.closest('[inert]')) return null;
  const target = asElement(event.target);
  if (typeof target?.closest === 'function' && target.closest(DIALOG_SELECTOR)) return null;
  return action;
}
