import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Lucide icons that point along the line (back, forward, in, out, send, undo, redo): they turn in a right-to-left page. */
const POINTING =
  /^(ArrowLeft|ArrowRight|ChevronLeft|ChevronRight|ChevronsLeft|ChevronsRight|LogIn|LogOut|Send|SendHorizontal|Undo2?|Redo2?|Reply|Forward)$/;

async function sourcesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tsx') && !entry.name.includes('.test.'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('pointing icons in a right-to-left page (docs/TRANSLATING.md)', () => {
  it('every pointing lucide icon drawn in the client turns with rtl:-scale-x-100 (or is a mirrored tool button)', async () => {
    const unturned: string[] = [];
    for (const file of await sourcesUnder(path.join(import.meta.dirname))) {
      const source = await readFile(file, 'utf8');
      // An icon drawn as an element: <LogIn className="…" … />, up to the end of its opening tag.
      for (const match of source.matchAll(/<([A-Z]\w*)\b([^>]*)>/g)) {
        if (POINTING.test(match[1]!) && !match[2]!.includes('rtl:-scale-x-100')) {
          unturned.push(`${path.relative(import.meta.dirname, file)}: <${match[1]}>`);
        }
      }
      // An icon handed to a tool button: icon={Undo2} needs isMirrored.
      for (const match of source.matchAll(/icon=\{(\w+)\}([^>]*)/g)) {
        if (POINTING.test(match[1]!) && !/\bisMirrored\b/.test(match[2]!)) {
          unturned.push(`${path.relative(import.meta.dirname, file)}: icon={${match[1]}}`);
        }
      }
    }
    expect(unturned).toEqual([]);
  });
});
