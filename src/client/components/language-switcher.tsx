import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { chooseLocale, isLocale, LOCALES } from '../lib/i18n.ts';

/**
 * The visitor's choice of language on the signed-out pages (issue 32): each language named in
 * itself, so a reader finds theirs whatever is shown. Kept in a cookie for a year and applied at
 * once, without a reload; the server reads the cookie for the next page's <html lang dir>.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useLingui();
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="me-2 text-sm text-muted">
        {t`Language`}
      </label>
      <select
        id={id}
        value={i18n.locale}
        onChange={(event) => isLocale(event.target.value) && void chooseLocale(event.target.value)}
        className="rounded-lg border border-line bg-surface px-2 py-1 text-sm text-fg"
      >
        <LocaleOptions />
      </select>
    </div>
  );
}

/** The shipped languages as a select's options, each named in itself (every language select shares them). */
export function LocaleOptions() {
  return Object.entries(LOCALES).map(([locale, { name }]) => (
    <option key={locale} value={locale} lang={locale}>
      {name}
    </option>
  ));
}
