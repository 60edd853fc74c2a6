/** Business constants of SPEC §9 that the foundation uses, kept as data. */

export const PRODUCT_NAME = 'StudyHall';

export const DEFAULT_QUIZ_SUBJECT = 'General trivia';

/** Dashboard header clock: refreshed every 10 s, 12-hour time, date d/m/yyyy. */
export const CLOCK_REFRESH_MS = 10_000;

/** react-hot-toast timings (SPEC §9). */
export const TOAST_DURATIONS_MS = {
  blank: 4000,
  error: 4000,
  success: 2000,
  loading: Number.POSITIVE_INFINITY,
} as const;
export const TOAST_LIMIT = 20;

/** Tooltips fade in 200 ms, out 500 ms, 10 px from their trigger, no delays. */
export const TOOLTIP = { fadeInMs: 200, fadeOutMs: 500, offsetPx: 10 } as const;

/** A lazy screen part that has not loaded after this long counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const USER_ROLES = ['teacher', 'student'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Study-mode shell of the student dashboard (SPEC §4, §9). */
export const STUDY_MODE = {
  blurAlert: "Don't forget about your goals!! Study hard, soldier!!",
  fullscreenNotice: 'This app cannot be used until you are in full screen mode. Press f to enter full screen.',
  fullscreenNoticeMs: 2000,
  breakReminder: 'Take a short break',
  breakReminderMs: 30_000,
  /** The key that requests full screen. */
  fullscreenKey: 'f',
} as const;
