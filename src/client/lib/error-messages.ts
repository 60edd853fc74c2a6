import { t } from '@lingui/core/macro';
import type { FieldError } from '#shared/api';
import type { EndpointSpec } from '#shared/contract/endpoint';
import { logInStudent, registerTeacher } from '#shared/contract/sign-in';
import type { ErrorCode } from '#shared/error-codes';
import { fieldErrorText } from './field-error-texts.ts';
import { unknownWaitText, waitText } from './wait-text.ts';
import type { ThrottleLimit } from '#shared/throttle';

/**
 * Why a call failed, for code to act on (decision 026): the server's code, or the client's own
 * when no answer in our envelope came (no connection; a proxy's page).
 */
export type FailureCode = ErrorCode | 'UNREACHABLE' | 'UNEXPECTED_ANSWER';

/** What the client knows of one failure, for the texts that depend on more than the code. */
export type FailureFacts = {
  /** The endpoint called: a code can mean a different thing on another endpoint (a login's role). */
  endpoint?: EndpointSpec | undefined;
  /** The HTTP status; 0 when no answer came. */
  status?: number | undefined;
  /** Retry-After of a 429 or a 503, in seconds. */
  retryAfterSeconds?: number | undefined;
  /** The budget that refused a THROTTLED request, as its body names it (decision 016). */
  throttleLimit?: ThrottleLimit | undefined;
  /** The request's id (the server's x-request-id), which its log lines carry. */
  requestId?: string | undefined;
  /** The server's own text, for logs (and an INTERNAL_ERROR's reference when no request id came). */
  serverMessage?: string | undefined;
  fieldErrors?: readonly FieldError[] | undefined;
};

/** A failure's words, from what the client knows of it; worded when asked, in the active locale. */
type FailureText = (facts: FailureFacts) => string;

/** No answer came: the connection, or the server is down. */
export const cannotReachServer = () => t`Cannot reach the server. Check your connection and try again.`;

/** The wait of Retry-After ("in 2 minutes"), or "in a moment" when none came. */
const waitOf = ({ retryAfterSeconds }: FailureFacts) =>
  retryAfterSeconds === undefined ? unknownWaitText() : waitText(retryAfterSeconds);

/**
 * A THROTTLED refusal in words, by the budget that refused, with the wait ("in 2 minutes"). A
 * limit added to src/shared/throttle.ts without its text here fails the typecheck.
 */
export const THROTTLE_TEXTS = {
  'sign-in-network': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many sign-in attempts from your network. Try again ${wait}, or on a device you have signed in on before.`,
    }),
  'sign-in-account': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many sign-in attempts for this account. Try again ${wait}, or on a device you have signed in on before.`,
    }),
  'sign-in-device': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many sign-in attempts on this device. Try again ${wait}.`,
    }),
  'known-devices': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many sign-ins to this account in a short time. Try again ${wait}.`,
    }),
  'password-checks': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many wrong passwords for this account. Try again ${wait}.`,
    }),
  'registration-network': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many accounts have been created from your network. Try again ${wait}.`,
    }),
  'registration-account': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many attempts to create this account. Try again ${wait}.`,
    }),
  'setup-code': (wait) =>
    t({ comment: '{wait}: a wait such as "in 2 minutes"', message: `Too many set-up codes tried. Try again ${wait}.` }),
  'class-codes': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Too many wrong class codes. Ask your teacher for the code and try again ${wait}.`,
    }),
  'students-added': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `You have added many students in a short time. Try again ${wait}.`,
    }),
  'roster-imports': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `You have imported many class lists in a short time. Try again ${wait}.`,
    }),
  'quiz-bytes': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `You have sent many large quizzes in a short time. Try again ${wait}.`,
    }),
  'large-requests': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Your account is already sending other large requests. Let them finish, then try again ${wait}.`,
    }),
  'password-work': (wait) =>
    t({
      comment: '{wait}: a wait such as "in 2 minutes"',
      message: `Many people are signing in right now. Try again ${wait}.`,
    }),
} satisfies Record<ThrottleLimit, (wait: string) => string>;

/**
 * Whether a limit a body names has a text here. Checked against this table, not the shared zod
 * enum, so the auth pages do not carry the limits' descriptions (0.4 kB gzipped).
 */
export const isWordedLimit = (limit: unknown): limit is ThrottleLimit =>
  typeof limit === 'string' && Object.hasOwn(THROTTLE_TEXTS, limit);

/** The reference of the server's log line, as `handleError` (src/server/app.ts) puts it in its message. */
export const referenceOf = (serverMessage: string | undefined) =>
  /\(Reference: ([^\s)]+)\)/.exec(serverMessage ?? '')?.[1];

/** What the address named: the quiz and resource endpoints say which. */
const isAbout = (facts: FailureFacts, segment: 'quiz' | 'resources') =>
  facts.endpoint?.path.split('/').includes(segment) ?? false;

/**
 * What a person reads for each failure (issue 18, point 2): the client decides the text from the
 * code, so a change of the server's wording never reaches a screen. Where the SPEC or a screen's
 * test pins a text, it is this one. A code without a text fails the typecheck. Functions, so each
 * text is worded in the locale active when it is asked for (issue 32), never when this loads.
 */
export const FAILURE_TEXTS = {
  // ---- The request cannot be read ----------------------------------------------------------
  // The first field problem says it, in the client's words for its code (decision 026, addenda).
  VALIDATION_FAILED: ({ fieldErrors }) =>
    fieldErrors?.[0]
      ? fieldErrorText(fieldErrors[0])
      : t`Something you sent is not valid. Check the form and try again.`,
  UNKNOWN_FIELD: () =>
    t`This page sent something the server does not accept: it may be out of date. Reload the page and try again.`,
  MALFORMED_REQUEST: () =>
    t`The server could not read the request: it is not valid or holds too much at once. Reload the page and try again.`,
  REQUEST_INTERRUPTED: () => t`The request was interrupted before it arrived. Try again.`,
  REQUEST_REFUSED: ({ status = 400 }) =>
    t({
      comment: '{status} is an HTTP status code such as 400',
      message: `The server refused the request (HTTP ${status}). Reload the page and try again.`,
    }),
  // ---- Who is calling ----------------------------------------------------------------------
  NOT_SIGNED_IN: () => t`Your session is not valid. Please log in again.`,
  SESSION_EXPIRED: () => t`Your session has expired. Please log in again.`,
  SIGNED_OUT: () =>
    t`You were signed out because your password was changed or you signed out of all devices. Please log in again.`,
  ACCOUNT_REMOVED: () => t`Your account no longer exists.`,
  ACCOUNT_DEACTIVATED: () => t`Your account has been deactivated by your school's administrator.`,
  WRONG_CREDENTIALS: ({ endpoint }) =>
    endpoint === logInStudent ? t`Username or password is incorrect` : t`Email or password is incorrect`,
  WRONG_CURRENT_PASSWORD: () => t`Your current password is not correct`,
  FORBIDDEN: () => t`This is not open to you: it belongs to another class, another teacher or the other role.`,
  PASSWORD_CHANGE_REQUIRED: () => t`Your teacher reset your password. Choose a new one to continue.`,
  // ---- What the request is about -----------------------------------------------------------
  NOT_FOUND: (facts) =>
    isAbout(facts, 'quiz')
      ? t`This quiz does not exist`
      : isAbout(facts, 'resources')
        ? t`This resource no longer exists`
        : t`This no longer exists: it may have been deleted.`,
  ROUTE_NOT_FOUND: () =>
    t`The server does not know this request: the page may be out of date. Reload the page and try again.`,
  ACCOUNT_EXISTS: () => t`This account already exists`,
  // Adding a student to a class and the student registration both make a student; only the teacher's form makes a teacher.
  EMAIL_TAKEN: ({ endpoint }) =>
    endpoint === registerTeacher
      ? t`A teacher with this email already exists`
      : t`A student with this email already exists`,
  ROLL_NUMBER_TAKEN: () => t`This account username is already taken`,
  TASK_LIST_CHANGED: () => t`Your task list changed elsewhere; it has been reloaded`,
  SCHOOL_ALREADY_SET_UP: () => t`This school has been set up already. Log in instead.`,
  SETUP_CODE_WRONG: () => t`This is not the set-up code. Copy it from the server's log.`,
  DEMO_IN_USE: () => t`Other teachers use the demo classes, or it holds the only administrator.`,
  INVITATION_NOT_FOUND: () => t`No invitation has this code. Open the link exactly as you were given it.`,
  INVITATION_USED: () => t`This invitation has been used already. Ask your administrator for a new one.`,
  INVITATION_EXPIRED: () => t`This invitation has expired. Ask your administrator for a new one.`,
  INVITATION_REVOKED: () => t`This invitation has been withdrawn. Ask your administrator for a new one.`,
  LAST_ADMINISTRATOR: () => t`The school needs an active administrator: make another teacher an administrator first.`,
  CLASS_NAME_TAKEN: () => t`The school already has a class with this name`,
  CLASS_CODE_INVALID: () =>
    t`This class code does not work. Check it with your teacher: it may have been changed or turned off.`,
  LAST_CLASS_TEACHER: () => t`A class needs a teacher: add another teacher before removing this one.`,
  TEACHER_NOT_ACTIVE: () => t`Choose an active teacher of the school.`,
  CLASS_HAS_TEACHER: () =>
    t`This class has a teacher now: another administrator gave it one. Its teachers can add co-teachers.`,
  CLASS_ARCHIVED: () => t`This class is archived. Unarchive it first.`,
  ROSTER_ROWS_INVALID: () => t`Some rows of the file have problems, so nothing was imported. Check the file again.`,
  IMPORT_RUNNING: () => t`Your previous import is still running. Wait for it to finish, then try again.`,
  QUIZ_CLOSED: () => t`The deadline of this quiz has passed`,
  QUIZ_HAS_ATTEMPTS: () => t`Students have started this quiz: its questions and options stay as they are`,
  QUIZ_ARCHIVED: () => t`This quiz is archived`,
  MARK_CHANGED: () => t`Another teacher marked this essay meanwhile. Their mark is shown now: mark again if needed.`,
  QUIZ_CHANGED: () =>
    t`This quiz was changed elsewhere since you opened it. Reload the page to see the changes, then edit again.`,
  ACCOMMODATION_TOO_LATE: () => t`The quiz has closed: its accommodations can no longer change`,
  ASSIGNMENT_CHANGED: () =>
    t`This assignment was changed elsewhere since you opened it. Reload the page to see the changes, then edit again.`,
  ASSIGNMENT_HAS_HAND_INS: () =>
    t`Students have handed in work: the points, the classes and the publish time stay as they are.`,
  ASSIGNMENT_ARCHIVED: () => t`This assignment is archived`,
  ASSIGNMENT_CLOSED: () => t`The due time has passed and late work is not accepted`,
  HAND_IN_CHANGED: () =>
    t`This work was changed elsewhere since you opened it (another tab or device). Reload the page: nothing was lost.`,
  HAND_IN_LOCKED: () => t`This work can no longer be changed this way. Reload the page to see where it stands.`,
  GRADEBOOK_CHANGED: () => t`A quiz or an assignment of this class changed meanwhile. The gradebook is shown again.`,
  HAND_IN_FILES_FULL: () => t`This work holds as many files as it can. Remove one before adding another.`,
  NO_LIVE_QUESTIONS: () => t`This quiz has only essays and descriptions, which a live game cannot play.`,
  QUIZ_NOT_STARTED: () => t`Start the quiz before answering it`,
  // The server words the time-up closing apart, but only in its message: one text says both.
  QUIZ_ALREADY_SUBMITTED: () =>
    t`You have already submitted this quiz, or its time ran out and your saved answers were submitted.`,
  // ---- Sizes and rates ---------------------------------------------------------------------
  PAYLOAD_TOO_LARGE: ({ endpoint }) =>
    endpoint?.body && 'form' in endpoint.body
      ? t`The file is too large to upload.`
      : t`The request is too large to send.`,
  STORAGE_QUOTA_EXCEEDED: () =>
    t`This file does not fit in your storage space. Delete files you no longer need, or ask your administrator for more space.`,
  UNSUPPORTED_MEDIA_TYPE: () =>
    t`The server could not read the request: it was not sent in a form it accepts. Reload the page and try again.`,
  FILE_TYPE_NOT_ALLOWED: () =>
    t`This type of file cannot be shared. Upload a document (PDF, Office, OpenDocument, text), an image, audio or a video.`,
  RANGE_NOT_SATISFIABLE: () => t`That part of the file does not exist. Open the file again.`,
  UPGRADE_REQUIRED: () =>
    t`The meeting needs a live connection this browser did not open. Reload the page and join again.`,
  // Which budget refused is the throttle's verdict: the body names it and the client words it.
  // A 429 that names none (a proxy's) gets the general text.
  THROTTLED: (facts) => {
    const wait = waitOf(facts);
    return facts.throttleLimit
      ? THROTTLE_TEXTS[facts.throttleLimit](wait)
      : t`Too many requests at once. Try again ${wait}.`;
  },
  // ---- The server --------------------------------------------------------------------------
  INTERNAL_ERROR: ({ requestId, serverMessage }) => {
    const reference = requestId ?? referenceOf(serverMessage);
    return reference
      ? t({
          comment: '{reference} is the code of the server log line, e.g. req-3f',
          message: `Something went wrong on our side. Please try again. (Reference: ${reference})`,
        })
      : t`Something went wrong on our side. Please try again.`;
  },
  UNAVAILABLE: (facts) => {
    const wait = waitOf(facts);
    return t`The server is not available just now. Try again ${wait}.`;
  },
  SERVER_BUSY: (facts) => {
    const wait = waitOf(facts);
    return t`The server is busy with other large requests. Try again ${wait}.`;
  },
  // ---- No answer in our envelope -----------------------------------------------------------
  UNREACHABLE: () => cannotReachServer(),
  UNEXPECTED_ANSWER: ({ status = 0 }) =>
    status >= 500
      ? t({
          comment: '{status} is an HTTP status code such as 502',
          message: `The server is not answering just now (HTTP ${status}). Try again in a moment.`,
        })
      : t({
          comment: '{status} is an HTTP status code such as 404',
          message: `The server answered unexpectedly (HTTP ${status}). Reload the page and try again.`,
        }),
} satisfies Record<FailureCode, FailureText>;

/** The text a person reads for a failure. */
export function failureText(code: FailureCode, facts: FailureFacts = {}): string {
  const text: FailureText = FAILURE_TEXTS[code];
  return text(facts);
}
