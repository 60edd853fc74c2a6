import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import {
  compareNames,
  formatClock,
  formatCountdown,
  formatDateTime,
  formatDay,
  formatDuration,
  formatFileSize,
  formatHeaderDate,
  formatList,
  formatNumber,
  formatPercent,
  formatRelative,
  formatScore,
  isolate,
} from './format.ts';
import { formatTimeZone } from './time-zone-names.ts';

describe('header clock and date', () => {
  it.each([
    [new Date(2026, 10, 21, 0, 5), '12:05 AM'],
    [new Date(2026, 10, 21, 9, 0), '9:00 AM'],
    [new Date(2026, 10, 21, 12, 30), '12:30 PM'],
    [new Date(2026, 10, 21, 23, 59), '11:59 PM'],
  ])('formats %s as %s', (date, expected) => {
    expect(formatClock(date)).toBe(expected);
  });

  it('writes the date as d/m/yyyy without padding', () => {
    expect(formatHeaderDate(new Date(2026, 0, 5))).toBe('5/1/2026');
    expect(formatHeaderDate(new Date(2026, 10, 21))).toBe('21/11/2026');
  });
});

describe('percentages and durations, one way everywhere', () => {
  it('writes a whole percentage without decimals and any other with two', () => {
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent('66.666')).toBe('66.67%');
    expect(formatPercent(0)).toBe('0%');
  });

  it('writes a time taken as m:ss', () => {
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(425)).toBe('7:05');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});

describe('formatting follows the active locale (issue 32 point 5)', () => {
  const inLocale = (locale: string, run: () => void) => {
    i18n.loadAndActivate({ locale, messages: {} });
    try {
      run();
    } finally {
      i18n.loadAndActivate({ locale: 'en', messages: {} });
    }
  };

  it('writes dates, numbers and percentages in Spanish', () => {
    inLocale('es', () => {
      expect(formatDay('2026-11-21T12:00:00Z')).toMatch(/21 nov 2026/);
      expect(formatPercent('66.666')).toBe('66,67\u00a0%');
      expect(formatScore(7.5, 10)).toBe('7,5 / 10');
      expect(formatNumber(1234.5)).toBe('1234,5');
      expect(formatList(['Ana', 'Bruno', 'Chen'])).toBe('Ana, Bruno y Chen');
      expect(formatRelative(new Date(Date.UTC(2026, 0, 4)), new Date(Date.UTC(2026, 0, 1)))).toBe('dentro de 3 días');
    });
  });

  it('writes Arabic with Latin digits (the app names that numbering) and Arabic words', () => {
    inLocale('ar', () => {
      // Literal strings: an Arabic-Indic "٧:٠٥" or "٧٫٥" (an older browser's `ar`) fails here.
      expect(formatCountdown(425)).toBe('7:05');
      expect(formatScore(7.5, 10)).toBe('7.5 / 10');
      expect(formatNumber(1234.5)).toBe('1,234.5');
      expect(formatDay('2026-11-21T12:00:00Z')).toBe('21 نوفمبر 2026');
      expect(formatList(['أ', 'ب'])).toBe('أ وب');
      expect(formatRelative(new Date(Date.UTC(2026, 0, 4)), new Date(Date.UTC(2026, 0, 1)))).toMatch(/أيام/);
    });
  });

  it('reads a score as one Arabic message: its order, each number isolated (issue 32)', async () => {
    const { messages } = (await import('../locales/ar/messages.po')) as { messages: Record<string, string> };
    const digit = (n: number, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat('ar', options).format(n);
    i18n.loadAndActivate({ locale: 'ar', messages });
    try {
      expect(formatScore(7.5, 10)).toBe(`\u2068${digit(7.5)}\u2069 من \u2068${digit(10)}\u2069`);
    } finally {
      i18n.loadAndActivate({ locale: 'en', messages: {} });
    }
  });

  it('names a time zone by its place and, in the active language, its name (issue 32)', () => {
    const place = isolate('America/Argentina/Buenos Aires');
    expect(formatTimeZone('America/Argentina/Buenos_Aires')).toBe(`${place} · Argentina Standard Time`);
    inLocale('es', () =>
      expect(formatTimeZone('Europe/Madrid')).toBe(`${isolate('Europe/Madrid')} · hora de Europa central`),
    );
    inLocale('ar', () =>
      expect(formatTimeZone('Europe/Madrid')).toBe(`${isolate('Europe/Madrid')} · توقيت وسط أوروبا`),
    );
    // A zone without a name of its own is its place alone.
    expect(formatTimeZone('UTC')).toMatch(/^\u2068UTC\u2069/);
  });

  it('keeps the English shapes of the spec', () => {
    expect(formatDateTime('2026-11-21T16:05:00')).toBe('21 Nov 2026, 16:05');
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(1_000_000)).toBe('1 megabyte');
    expect(compareNames('émile', 'Zoe')).toBeLessThan(0);
    expect(['item 10', 'item 9'].sort(compareNames)).toEqual(['item 9', 'item 10']);
  });
});
