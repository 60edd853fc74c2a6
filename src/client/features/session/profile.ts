import { i18n } from '@lingui/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StudentProfile, TeacherProfile } from '#shared/accounts';
import type { UserRole } from '#shared/constants';
import { getProfile } from '#shared/contract/accounts';
import { call } from '../../lib/api.ts';
import { chooseLocale } from '../../lib/i18n.ts';

export type ProfileOf<R extends UserRole> = R extends 'teacher' ? TeacherProfile : StudentProfile;

/** The signed-in user's profile: server state, so the query cache is its one home. */
export const profileQueries = {
  all: ['profile'] as const,
  profile: <R extends UserRole>(role: R) =>
    queryOptions({
      queryKey: [...profileQueries.all, role],
      queryFn: async ({ signal }) => {
        const profile = (await call<(typeof getProfile)[UserRole]>(getProfile[role], {}, { signal }))
          .data as ProfileOf<R>;
        // The person's own language (issue 32), chosen on any device: shown before the dashboard,
        // which waits for the profile, and kept in this browser's cookie for its signed-out pages.
        if (profile.locale && profile.locale !== i18n.locale) await chooseLocale(profile.locale);
        return profile;
      },
      retry: false,
      staleTime: 60_000,
      // A failure ends the session: the login says why.
      meta: { errorToast: false },
    }),
};

/**
 * The signed-in teacher's or student's profile, as the dashboard's guard fetched it: a screen
 * under the guard always has it (the guard shows the screen once it has arrived). Reading it
 * does not fetch it again; a change (a submitted quiz) invalidates the query.
 */
export function useProfile<R extends UserRole>(role: R): ProfileOf<R> | undefined {
  return useQuery({ ...profileQueries.profile(role), refetchOnMount: false }).data;
}
