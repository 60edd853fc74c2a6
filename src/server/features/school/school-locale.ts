import { schools } from '../../db/schema.ts';
import type { Database } from '../../db/client.ts';
import { isLocale, type Locale } from '#shared/locales';

/**
 * How long an instance trusts the school's default language it read (decision 055 addendum):
 * the instance that saves a new one forgets its copy at once; the others read it again within this.
 */
export const SCHOOL_LOCALE_TTL_MS = 30_000;

export type SchoolLocaleReader = {
  /** The school's default language, or undefined before the set-up (or when it cannot be read now). */
  read(): Promise<Locale | undefined>;
  /** The school's language changed here (set-up, the Staff screen, the demo): read it again next time. */
  forget(): void;
};

/**
 * The school's default language for the pages the server sends (the app's shell, the landing):
 * one small query per instance at most every SCHOOL_LOCALE_TTL_MS, so a page costs no query.
 * A failed read answers undefined (English) and is not kept: a page never fails for it.
 */
export function createSchoolLocaleReader(
  db: Pick<Database, 'select'>,
  { ttlMs = SCHOOL_LOCALE_TTL_MS, now = Date.now }: { ttlMs?: number; now?: () => number } = {},
): SchoolLocaleReader {
  let kept: { locale: Locale | undefined; readAt: number } | null = null;
  let reading: Promise<Locale | undefined> | null = null;
  let generation = 0;

  async function readNow(): Promise<Locale | undefined> {
    const startedIn = generation;
    try {
      const [school] = await db.select({ defaultLocale: schools.defaultLocale }).from(schools).limit(1);
      const locale = isLocale(school?.defaultLocale) ? school.defaultLocale : undefined;
      // A forget() during the read: this answer may be the old value, so it is not kept.
      if (startedIn === generation) kept = { locale, readAt: now() };
      return locale;
    } catch {
      return undefined;
    } finally {
      if (startedIn === generation) reading = null;
    }
  }

  return {
    read() {
      if (kept && now() - kept.readAt < ttlMs) return Promise.resolve(kept.locale);
      reading ??= readNow();
      return reading;
    },
    forget() {
      kept = null;
      reading = null;
      generation += 1;
    },
  };
}
