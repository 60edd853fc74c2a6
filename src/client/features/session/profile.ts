import { i18n } from '@lingui/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StudentProfile, TeacherProfile } from '#shared/accounts';
import type { UserRole } from '#shared/constants';
import { chooseLanguage, getProfile } from '#shared/contract/accounts';
import { getSchool } from '#shared/contract/school-status';
import { readCookie } from '#shared/cookies';
import { isSharedDemoAccount } from '#shared/demo';
import { LOCALE_COOKIE, type Locale } from '#shared/locales';
import { call } from '../../lib/api.ts';
import { chooseLocale, isPseudoLocaleOn, signedInLocale, visitorChoice } from '../../lib/i18n.ts';

/** The profile, with the school's default language: what the account's "Automatic" gives. */
export type ProfileOf<R extends UserRole> = (R extends 'teacher' ? TeacherProfile : StudentProfile) & {
  schoolLocale: Locale;
};

/** The signed-in user's profile: server state, so the query cache is its one home. */
export const profileQueries = {
  all: ['profile'] as const,
  profile: <R extends UserRole>(role: R) =>
    queryOptions({
      queryKey: [...profileQueries.all, role],
      queryFn: async ({ signal }): Promise<ProfileOf<R>> => {
        const [profileAnswer, school] = await Promise.all([
          call<(typeof getProfile)[UserRole]>(getProfile[role], {}, { signal }),
          call(getSchool, {}, { signal }),
        ]);
        const profile = profileAnswer.data as ProfileOf<R>;
        const own = profile.locale ?? (await keepVisitorChoice(role, profile));
        // A visitor's choice the account could not take yet stays this browser's (not marked the account's).
        const unsaved = own ? undefined : visitorChoice();
        const schoolLocale = school.data.defaultLocale;
        // The person's language (issue 32, decision 055 addendum): their own, chosen on any device,
        // else the school's. Shown before the dashboard, which waits for the profile, and kept in this
        // browser's cookie (marked the account's) so the server's next page is in it too, until the sign-out.
        const shown = signedInLocale({ own: own ?? unsaved ?? null, schoolLocale });
        const inCookie = readCookie(document.cookie, LOCALE_COOKIE);
        if (!isPseudoLocaleOn() && !unsaved && (shown !== i18n.locale || shown !== inCookie)) {
          await chooseLocale(shown, 'account');
        }
        // The answer is this query's own object: completed in place.
        return Object.assign(profile, { locale: own, schoolLocale });
      },
      retry: false,
      staleTime: 60_000,
      // A failure ends the session: the login says why.
      meta: { errorToast: false },
    }),
};

/**
 * An account without a language of its own takes the one its person chose with the switcher on
 * this browser before signing in or registering, so it follows them to another device. Not saved
 * (kept on this browser only) when the server refuses it now, e.g. a password to choose first,
 * or on the demo's shared accounts.
 */
async function keepVisitorChoice(role: UserRole, profile: TeacherProfile | StudentProfile): Promise<Locale | null> {
  const chosen = visitorChoice();
  if (!chosen || ('mustChangePassword' in profile && profile.mustChangePassword)) return null;
  // The demo's accounts are shared by every visitor: the choice stays this browser's.
  if (isSharedDemoAccount(profile)) return null;
  try {
    await call(chooseLanguage[role], { body: { locale: chosen } });
    return chosen;
  } catch {
    return null;
  }
}

/**
 * The signed-in teacher's or student's profile, as the dashboard's guard fetched it: a screen
 * under the guard always has it (the guard shows the screen once it has arrived). Reading it
 * does not fetch it again; a change (a submitted quiz) invalidates the query.
 */
export function useProfile<R extends UserRole>(role: R): ProfileOf<R> | undefined {
  return useQuery({ ...profileQueries.profile(role), refetchOnMount: false }).data;
}
