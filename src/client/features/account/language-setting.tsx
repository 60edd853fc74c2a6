import { useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Languages } from 'lucide-react';
import { useId, useState } from 'react';
import toast from 'react-hot-toast/headless';
import type { UserRole } from '#shared/constants';
import { chooseLanguage } from '#shared/contract/accounts';
import { isLocale, type Locale } from '#shared/locales';
import { LocaleOptions } from '../../components/language-switcher.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { chooseLocale, LOCALES, signedInLocale } from '../../lib/i18n.ts';
import { profileQueries, useProfile } from '../session/profile.ts';

/** The select's value for "no choice of mine": the school's default language. */
const NOT_CHOSEN = '';

/**
 * The person's language (issue 32 point 4), kept on their account so it follows them to another
 * device. Applied at once, without a reload; the cookie (the account's, removed at the sign-out)
 * gives it to the server's next page. "Automatic" is the school's default language, named in the
 * option (decision 055 addendum).
 */
export function LanguageSetting({ role }: { role: UserRole }) {
  const { t } = useLingui();
  const id = useId();
  const profile = useProfile(role);
  const queryClient = useQueryClient();
  const [isSaving, setIsSaving] = useState(false);
  const automaticName = profile ? LOCALES[signedInLocale({ own: null, schoolLocale: profile.schoolLocale })].name : '';

  const choose = async (value: string) => {
    const locale: Locale | null = isLocale(value) ? value : null;
    setIsSaving(true);
    try {
      await call(chooseLanguage[role], { body: { locale } });
      queryClient.setQueryData(profileQueries.profile(role).queryKey, (known) =>
        known ? { ...known, locale } : known,
      );
      if (profile) await chooseLocale(signedInLocale({ own: locale, schoolLocale: profile.schoolLocale }), 'account');
      toast.success(t`Language saved`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className={cn(cardVariants({ rounded: '2xl' }), 'p-5 sm:p-8')}>
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-xl font-bold text-fg">
        <Languages className="size-5 text-brand-700" aria-hidden="true" />
        {t`Language`}
      </h2>
      <p className="mt-1 text-sm text-muted">{t`The language of StudyHall on every device you sign in on.`}</p>
      <label htmlFor={id} className="mt-5 block text-sm font-semibold text-fg">
        {t`Language of the interface`}
      </label>
      <select
        id={id}
        value={profile?.locale ?? NOT_CHOSEN}
        disabled={isSaving || !profile}
        onChange={(event) => void choose(event.target.value)}
        className="mt-1 w-full max-w-xs rounded-lg border border-line bg-surface px-3 py-2 text-fg"
      >
        <option value={NOT_CHOSEN}>{t`Automatic (${automaticName})`}</option>
        <LocaleOptions />
      </select>
    </section>
  );
}
