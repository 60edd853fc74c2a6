import type { LockoutPolicy } from './throttle-store.ts';

/** The throttle's numbers; why they are what they are: docs/decisions/016-throttling.md. */

export const HOUR_MS = 60 * 60_000;

/** A failed sign-in or registration costs this many points of its network's budget; a success costs 1. */
export const FAILURE_COST = 5;

export type ThrottleLimits = {
  /** Sign-in points per network per hour (SIGN_IN_LIMIT_PER_IP), all at once if need be. */
  signInPerNetwork: number;
  /** Registration points per network per hour (REGISTRATION_LIMIT_PER_IP). */
  registrationsPerNetwork: number;
  /** Students one teacher may add per hour (add-student). */
  studentsAddedPerTeacher: number;
  /** Failed sign-ins on one account, from anywhere. */
  accountLockout: LockoutPolicy;
};

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  // A school of 2,000 behind one NAT signs in before an exam, a tenth of them mistyping once:
  // 2,000 + 200 x 5 = 3,000 points. A guesser from one network gets 1,000 guesses, then 1,000 an hour.
  signInPerNetwork: 5_000,
  // A class or two registering at once; a whole school registers through its teachers (add-student).
  registrationsPerNetwork: 500,
  // Typing in a class by hand takes half a minute per student.
  studentsAddedPerTeacher: 300,
  // 5 tries, then 1, 2, 4, 8, 15, 15... minutes: at most about 10 guesses in the first hour and 4
  // an hour after that (ASVS: no more than 100 an hour), and never locked for more than 15 minutes.
  accountLockout: { freeFailures: 5, firstLockMs: 60_000, maxLockMs: 15 * 60_000, forgetAfterMs: HOUR_MS },
};
