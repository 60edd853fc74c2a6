import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { formatAccuracy } from '#shared/accuracy';

/**
 * Every date, number and duration a person reads, in the active locale (issue 32 point 5): the
 * locale is Lingui's active one (`activateLocale`), English before any is active (tests, the
 * landing page's first paint). Formatters are built once per locale and kept.
 */
export function activeLocale(): string {
  return i18n.locale || 'en';
}

/**
 * Arabic is written with Latin digits (1, 2, 3), the numbering CLDR 42+ gives `ar`, named here so
 * that an older browser, whose `ar` meant Arabic-Indic digits (١، ٢، ٣), shows the same numbers.
 */
const NUMBERING: Record<string, string> = { ar: 'latn' };

/** The tag Intl gets for a locale: its numbering system named when the app chose one. */
export function intlTag(locale: string): string {
  const numbering = NUMBERING[locale];
  return numbering ? `${locale}-u-nu-${numbering}` : locale;
}

function perLocale<T>(build: (locale: string) => T): () => T {
  const built = new Map<string, T>();
  return () => {
    const locale = intlTag(activeLocale());
    let formatter = built.get(locale);
    if (!formatter) {
      formatter = build(locale);
      built.set(locale, formatter);
    }
    return formatter;
  };
}

// English keeps SPEC §9's en-GB shapes ("21 Nov 2026, 16:05"); other locales their own.
export const dateLocaleOf = (locale: string) => (locale === 'en' ? 'en-GB' : locale);

const clockFormat = perLocale(
  (locale) => new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : locale, { hour: 'numeric', minute: '2-digit' }),
);
const headerDateFormat = perLocale(
  (locale) => new Intl.DateTimeFormat(dateLocaleOf(locale), { day: 'numeric', month: 'numeric', year: 'numeric' }),
);
const dateTimeFormat = perLocale(
  (locale) =>
    new Intl.DateTimeFormat(dateLocaleOf(locale), {
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }),
);
const dayFormat = perLocale(
  (locale) => new Intl.DateTimeFormat(dateLocaleOf(locale), { day: '2-digit', month: 'short', year: 'numeric' }),
);
const relativeFormat = perLocale((locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
const listFormat = perLocale((locale) => new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }));
const collator = perLocale((locale) => new Intl.Collator(locale, { sensitivity: 'base', numeric: true }));

/** Header clock, e.g. "4:05 PM" in English, "16:05" in Spanish. */
export function formatClock(date: Date): string {
  return clockFormat().format(date);
}

/** Header date (SPEC §2: d/m/yyyy in English), e.g. "21/11/2026". */
export function formatHeaderDate(date: Date): string {
  // en-GB pads the day and month; the spec's header does not.
  if (activeLocale() === 'en') return `${date.getDate()}/${date.getMonth() + 1}/${date.getFullYear()}`;
  return headerDateFormat().format(date);
}

/** SPEC §9 dates with the time, e.g. "21 Nov 2026, 16:05" in English. */
export function formatDateTime(value: string | Date): string {
  return dateTimeFormat().format(new Date(value));
}

/** SPEC §9 date without its time, e.g. "21 Nov 2026"; "—" for a value that is not a date. */
export function formatDay(value: string | Date): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : dayFormat().format(date);
}

/** A number in the locale's digits and separators: 1,234.5 / 1234,5 / 1,234.5 (Arabic, Latin digits). */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlTag(activeLocale()), options).format(value);
}

/**
 * Every percentage the app shows (accuracy, % correct): a whole number when it is one,
 * otherwise two decimals (SPEC §4 accuracy display), with the locale's percent sign.
 */
export function formatPercent(value: number | string): string {
  const rounded = Number(formatAccuracy(value));
  return formatNumber(rounded / 100, { style: 'percent', maximumFractionDigits: 2 });
}

/**
 * A score, e.g. "7.5 / 10": both numbers in the locale's digits, the reading one message so a
 * language orders it and isolates each number (Arabic: "٧٫٥ من ١٠").
 */
export function formatScore(score: number, outOf: number): string {
  const scored = formatNumber(score, { maximumFractionDigits: 2 });
  const total = formatNumber(outOf, { maximumFractionDigits: 2 });
  return t({ comment: 'A score out of the total points, e.g. "7.5 / 10"', message: `${scored} / ${total}` });
}

/** A countdown as m:ss (or h:mm:ss past an hour), e.g. "9:05", in the locale's digits. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const two = (n: number) => formatNumber(n, { minimumIntegerDigits: 2, useGrouping: false });
  const rest = two(seconds % 60);
  return hours > 0 ? `${formatNumber(hours)}:${two(minutes)}:${rest}` : `${formatNumber(minutes)}:${rest}`;
}

/** A time taken, e.g. 425 s -> "7:05" (m:ss, h:mm:ss past an hour), as the quiz timer counts. */
export const formatDuration = (totalSeconds: number) => formatCountdown(totalSeconds);

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** A moment relative to now: "in 3 days", "yesterday", "hace 2 horas". */
export function formatRelative(value: string | Date, now: Date = new Date()): string {
  const seconds = (new Date(value).getTime() - now.getTime()) / 1000;
  const [unit, size] = RELATIVE_UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? ['second', 1];
  return relativeFormat().format(Math.round(seconds / size), unit);
}

/** A file size in the locale's digits and unit words: "512 bytes", "1.5 kilobytes". */
export function formatFileSize(bytes: number): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let index = 0;
  while (value >= 1000 && index < units.length - 1) {
    value /= 1000;
    index++;
  }
  return formatNumber(value, {
    style: 'unit',
    unit: units[index],
    // Long: 'short' gives English "512 byte" (CLDR's short byte has no plural).
    unitDisplay: 'long',
    maximumFractionDigits: index === 0 ? 0 : 1,
  });
}

/** "Ana, Bruno and Chen" in the locale's words. */
export function formatList(items: readonly string[]): string {
  return listFormat().format(items);
}

/** Compares names as the locale sorts them (accents, case and numbers as a person expects). */
export function compareNames(a: string, b: string): number {
  return collator().compare(a, b);
}

/**
 * A person's text inside a sentence or a title of ours (a class, a quiz, a file name), isolated
 * (U+2068 … U+2069): an Arabic name in an English title, or a Latin one in Arabic, keeps its own
 * direction without moving the words and separators around it.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
