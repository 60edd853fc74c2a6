import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Decision 027: screens colour text, fills and borders through the semantic tokens of
// styles.css (text-muted, bg-surface, text-danger…), never raw palette classes, so a palette
// change is one edit there. This guard reads the client's sources for the raw classes.

const CLIENT = import.meta.dirname;

/** A Tailwind colour utility (or a var() of one) on a default palette; brand, accent and teal are ours. */
const RAW_PALETTE =
  /(?<![\w-])(?:(?:text|bg|border|ring|ring-offset|divide|placeholder|fill|stroke|outline|from|via|to|shadow|decoration|caret|accent)-|--color-)(?:slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose)-\d{2,3}\b/g;

/**
 * Colours that are what a thing is, not theme: a medal is gold, silver or bronze and a star is
 * gold. Each entry names its file and the classes it may use.
 */
const ALLOWED: Record<string, readonly string[]> = {
  'features/leaderboard/leaderboard-table.tsx': [
    'text-amber-600',
    'text-slate-500',
    'text-orange-800',
    'fill-amber-400',
    'text-amber-700',
  ],
  'features/resources/student-resources-page.tsx': ['fill-amber-400', 'text-amber-600'],
};

/** Raw palette classes of one source text, minus the ones its file is allowed. */
function rawPaletteClasses(source: string, allowed: readonly string[] = []): string[] {
  return [...source.matchAll(RAW_PALETTE)].map(([found]) => found).filter((found) => !allowed.includes(found));
}

function clientSources(): string[] {
  return readdirSync(CLIENT, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
    .map((path) => path.replaceAll('\\', '/'));
}

describe('theme palette guard', () => {
  it('finds raw palette classes, with or without a variant, and lets the allowed ones through', () => {
    expect(rawPaletteClasses('"text-slate-900 hover:bg-red-50 md:border-amber-300"')).toEqual([
      'text-slate-900',
      'bg-red-50',
      'border-amber-300',
    ]);
    expect(rawPaletteClasses('shadow-[inset_4px_0_0_var(--color-amber-500)]')).toEqual(['--color-amber-500']);
    expect(rawPaletteClasses('"text-muted bg-surface-muted ring-brand-500 text-teal-600"')).toEqual([]);
    expect(rawPaletteClasses('"fill-amber-400 text-slate-900"', ['fill-amber-400'])).toEqual(['text-slate-900']);
  });

  it('keeps raw palette classes out of the client: screens use the semantic tokens of styles.css', () => {
    const sources = clientSources();
    expect(sources).toContain('features/students/students-page.tsx');
    const offenders = sources.flatMap((path) =>
      rawPaletteClasses(readFileSync(join(CLIENT, path), 'utf8'), ALLOWED[path]).map((found) => `${path}: ${found}`),
    );
    expect(offenders, 'use a token of styles.css (decision 027), or allow the colour here with its reason').toEqual([]);
  });

  it('allows only what is still used', () => {
    const unused = Object.entries(ALLOWED).flatMap(([path, classes]) => {
      const found = new Set(rawPaletteClasses(readFileSync(join(CLIENT, path), 'utf8')));
      return classes.filter((name) => !found.has(name)).map((name) => `${path}: ${name}`);
    });
    expect(unused).toEqual([]);
  });
});
