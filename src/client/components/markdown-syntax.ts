/**
 * What MarkdownField's toolbar and shortcuts do to the text: pure functions from the text and
 * its selection to one replacement and the selection after it, so that the field can apply the
 * replacement as typing (the browser's undo keeps it) and the tests can check the syntax.
 */
export type MarkdownFormat = 'bold' | 'italic' | 'link' | 'bulletList' | 'numberedList' | 'heading';

export type TextSelection = { value: string; start: number; end: number };

/** Replace value[from, to) with `insert`, then select [selectStart, selectEnd) of the new text. */
export type TextEdit = { from: number; to: number; insert: string; selectStart: number; selectEnd: number };

const INLINE_MARKS = { bold: '**', italic: '*' } as const;

export function formatEdit(selection: TextSelection, format: MarkdownFormat): TextEdit {
  switch (format) {
    case 'bold':
    case 'italic':
      return toggleInline(selection, INLINE_MARKS[format]);
    case 'link':
      return linkEdit(selection);
    case 'bulletList':
      return toggleLinePrefix(selection, /^[-*+] /, () => '- ');
    case 'numberedList':
      return toggleLinePrefix(selection, /^\d{1,9}[.)] /, (index) => `${index + 1}. `);
    case 'heading':
      return toggleLinePrefix(selection, /^#{1,6} /, () => '# ');
  }
}

/** The text with an edit applied (when the browser cannot apply it as typing, and in tests). */
export function applyEdit(value: string, edit: TextEdit): string {
  return value.slice(0, edit.from) + edit.insert + value.slice(edit.to);
}

/** `**text**` around the selection, or taken away when it is already there (inside or around it). */
function toggleInline({ value, start, end }: TextSelection, mark: string): TextEdit {
  const selected = value.slice(start, end);
  // Spaces selected at the ends stay outside the marks: `** bold**` is not bold.
  const leading = selected.length - selected.trimStart().length;
  const trailing = selected.length - selected.trimEnd().length;
  const innerStart = start + (selected.trim() === '' ? 0 : leading);
  const innerEnd = end - (selected.trim() === '' ? 0 : trailing);
  const inner = value.slice(innerStart, innerEnd);
  const isMarked = (text: string) =>
    text.length >= mark.length * 2 &&
    text.startsWith(mark) &&
    text.endsWith(mark) &&
    // `**bold**` is not italic: one `*` more on each side would be a different mark.
    !(mark === '*' && text.startsWith('**') && !text.startsWith('***'));
  if (isMarked(inner)) {
    const unmarked = inner.slice(mark.length, inner.length - mark.length);
    return {
      from: innerStart,
      to: innerEnd,
      insert: unmarked,
      selectStart: innerStart,
      selectEnd: innerStart + unmarked.length,
    };
  }
  const before = value.slice(Math.max(0, innerStart - mark.length), innerStart);
  const after = value.slice(innerEnd, innerEnd + mark.length);
  if (before === mark && after === mark && isMarked(value.slice(innerStart - mark.length, innerEnd + mark.length))) {
    return {
      from: innerStart - mark.length,
      to: innerEnd + mark.length,
      insert: inner,
      selectStart: innerStart - mark.length,
      selectEnd: innerEnd - mark.length,
    };
  }
  return {
    from: innerStart,
    to: innerEnd,
    insert: `${mark}${inner}${mark}`,
    selectStart: innerStart + mark.length,
    selectEnd: innerEnd + mark.length,
  };
}

const URL_LIKE = /^(https?:\/\/|mailto:)\S+$/i;

/**
 * `[text](https://)` with the URL's place selected, to type it; a selected URL becomes the
 * link's address, with the cursor where its text goes.
 */
function linkEdit({ value, start, end }: TextSelection): TextEdit {
  const selected = value.slice(start, end).trim();
  if (URL_LIKE.test(selected)) {
    const insert = `[](${selected})`;
    return { from: start, to: end, insert, selectStart: start + 1, selectEnd: start + 1 };
  }
  const insert = `[${selected}](https://)`;
  const urlStart = start + selected.length + 3;
  return { from: start, to: end, insert, selectStart: urlStart, selectEnd: urlStart + 'https://'.length };
}

/**
 * A prefix on every line the selection touches (`- `, `1. `, `# `), replacing another list's or
 * heading's; taken away when every line already has it. The whole lines stay selected.
 */
function toggleLinePrefix(
  { value, start, end }: TextSelection,
  existing: RegExp,
  prefixOf: (index: number) => string,
): TextEdit {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  // A selection that ends at the start of a line (a triple click) does not take that line.
  const lastEnd = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const newline = value.indexOf('\n', lastEnd);
  const to = newline === -1 ? value.length : newline;
  const lines = value.slice(from, to).split('\n');
  const ANY_PREFIX = /^([-*+] |\d{1,9}[.)] |#{1,6} )/;
  const isOn = lines.every((line) => existing.test(line));
  const insert = lines
    .map((line, index) => (isOn ? line.replace(existing, '') : prefixOf(index) + line.replace(ANY_PREFIX, '')))
    .join('\n');
  const isCollapsed = start === end;
  const cursor = isCollapsed ? from + insert.split('\n')[0]!.length : from;
  return {
    from,
    to,
    insert,
    selectStart: isCollapsed ? cursor : from,
    selectEnd: isCollapsed ? cursor : from + insert.length,
  };
}
