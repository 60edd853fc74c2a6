// The whiteboards' undo and redo keys, shared with the class board (components/drawing/).
export * from '../../components/drawing/keyboard-shortcuts.ts';
