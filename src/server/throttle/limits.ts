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
  /** Students one teacher may add per hour (into their classes). */
  studentsAddedPerTeacher: number;
  /** Class lists one teacher may import per hour (each up to 2,000 students, decision 034). */
  rosterImportsPerTeacher: number;
  /** Bytes of add-quiz bodies one teacher may send per hour, all at once if need be (decision 023's addendum). */
  quizBytesPerTeacher: number;
  /**
   * Sign-in points per account and hour for those who have proven it before: its known devices
   * together, or its own session changing the password. The cap on the password checks (argon2)
   * they can cause, since the network's budget does not count them.
   */
  knownDeviceSignInsPerAccount: number;
  /** Failed sign-ins on one account from devices it does not know (from anywhere); the same rule per known device. */
  accountLockout: LockoutPolicy;
  /**
   * Password checks waiting for their turn (password-work.ts, decision 040) past which a sign-in
   * or a password change is refused (429, `password-work`) before anything is charged.
   */
  passwordChecksWaiting: number;
};

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  // A school of 2,000 behind one NAT signs in before an exam, a tenth of them mistyping once:
  // 2,000 + 200 x 5 = 3,000 points. A guesser from one network gets 1,000 guesses, then 1,000 an hour.
  // Known devices do not count here: a script behind the address cannot keep them out.
  signInPerNetwork: 5_000,
  // A class or two registering at once; a whole school registers through its teachers (adding students to a class).
  registrationsPerNetwork: 500,
  // Typing in a class by hand takes half a minute per student.
  studentsAddedPerTeacher: 300,
  // A school's classes imported by one teacher at the start of a year; each import of 2,000
  // hashes for about a minute of one core, so an hour's budget bounds what one account costs.
  rosterImportsPerTeacher: 20,
  // A long quiz of 200 questions is ~100 kB, the largest valid one 1.8 MB: eight of those at
  // once, or hundreds of ordinary ones, an hour. Each large one costs ~30 ms of the only thread
  // and a megabyte on disk; without a bound one teacher could send 40 a second.
  quizBytesPerTeacher: 16 * 1024 * 1024,
  // 100 sign-ins an hour, or 20 wrong passwords, on one person's own devices: far more than a
  // person needs, and what someone who knows their own password can make the server check.
  knownDeviceSignInsPerAccount: 100,
  // 5 tries, then 1, 2, 4, 8, 15, 15... minutes: at most about 10 guesses in the first hour and 4
  // an hour after that (ASVS: no more than 100 an hour), and never locked for more than 15 minutes.
  accountLockout: { freeFailures: 5, firstLockMs: 60_000, maxLockMs: 15 * 60_000, forgetAfterMs: HOUR_MS },
  // About a second of waiting on one core (20-30 ms a check): a class signing in together waits
  // its turn, a script's burst past it is refused before it costs a check.
  passwordChecksWaiting: 40,
};
