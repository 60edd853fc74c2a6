import { describe, expect, it } from 'vitest';
import { isTextEntry, whiteboardShortcut, type ShortcutKeyEvent } from './keyboard-shortcuts.ts';

const input = (type: string) => ({ tagName: 'INPUT', type, isContentEditable: false });

/** A stand-in for an element: `closest` answers from the selectors it is "inside". */
const element = (tagName: string, inside: string[] = []) => ({
  tagName,
  isContentEditable: false,
  closest: (selector: string) => (inside.some((match) => selector.includes(match)) ? {} : null),
});

const key = (overrides: Partial<ShortcutKeyEvent> = {}): ShortcutKeyEvent => ({
  key: 'z',
  ctrlKey: true,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
  target: element('BODY'),
  ...overrides,
});

const board = (inside: string[] = []) => element('CANVAS', inside);

describe('isTextEntry', () => {
  it('counts fields that take typed text', () => {
    for (const type of ['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date']) {
      expect(isTextEntry(input(type)), type).toBe(true);
    }
    expect(isTextEntry({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTextEntry({ tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('does not count the colour field, the size menu, buttons and other controls without text', () => {
    for (const type of ['color', 'range', 'checkbox', 'radio', 'button', 'submit', 'file']) {
      expect(isTextEntry(input(type)), type).toBe(false);
    }
    expect(isTextEntry({ tagName: 'SELECT' })).toBe(false);
    expect(isTextEntry({ tagName: 'BUTTON' })).toBe(false);
    expect(isTextEntry({ tagName: 'CANVAS' })).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });
});

describe('whiteboardShortcut', () => {
  it('undoes with Ctrl/Cmd+Z and redoes with Shift+Ctrl/Cmd+Z or Ctrl+Y', () => {
    expect(whiteboardShortcut(key(), board())).toBe('undo');
    expect(whiteboardShortcut(key({ ctrlKey: false, metaKey: true }), board())).toBe('undo');
    expect(whiteboardShortcut(key({ key: 'Z', shiftKey: true }), board())).toBe('redo');
    expect(whiteboardShortcut(key({ key: 'y' }), board())).toBe('redo');
    expect(whiteboardShortcut(key({ key: 'z', ctrlKey: false }), board())).toBeNull();
    expect(whiteboardShortcut(key({ altKey: true }), board())).toBeNull();
    expect(whiteboardShortcut(key({ defaultPrevented: true }), board())).toBeNull();
  });

  it('works while the colour field or the size menu has the focus (after picking a colour or a size)', () => {
    expect(whiteboardShortcut(key({ target: { ...input('color'), closest: () => null } }), board())).toBe('undo');
    expect(whiteboardShortcut(key({ target: element('SELECT') }), board())).toBe('undo');
  });

  it('leaves Ctrl+Z to a text field', () => {
    expect(whiteboardShortcut(key({ target: { ...input('text'), closest: () => null } }), board())).toBeNull();
  });

  it('does nothing when the board is behind a modal overlay (inert) or the keys come from a dialog', () => {
    expect(whiteboardShortcut(key(), board(['[inert]']))).toBeNull();
    expect(whiteboardShortcut(key({ target: element('BUTTON', ['dialog']) }), board())).toBeNull();
    expect(whiteboardShortcut(key(), null)).toBeNull();
  });
});
