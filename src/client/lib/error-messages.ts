import type { FieldError } from '#shared/api';
import type { EndpointSpec } from '#shared/contract/endpoint';
import { logInStudent, registerTeacher } from '#shared/contract/sign-in';
import type { ErrorCode } from '#shared/error-codes';
import { formatWait } from '#shared/format-wait';
import { fieldErrorText } from './field-error-texts.ts';
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

type FailureText = string | ((facts: FailureFacts) => string);

export const CANNOT_REACH_SERVER = 'Cannot reach the server. Check your connection and try again.';
const RELOAD_AND_RETRY = 'Reload the page and try again.';

const tryAgain = ({ retryAfterSeconds }: FailureFacts) =>
  retryAfterSeconds === undefined ? 'Try again in a moment' : `Try again ${formatWait(retryAfterSeconds)}`;

/**
 * A THROTTLED refusal in words, by the budget that refused, with the wait ("in 2 minutes"). A
 * limit added to src/shared/throttle.ts without its text here fails the typecheck.
 */
export const THROTTLE_TEXTS = {
  'sign-in-network': (wait) =>
    `Too many sign-in attempts from your network. Try again ${wait}, or on a device you have signed in on before.`,
  'sign-in-account': (wait) =>
    `Too many sign-in attempts for this account. Try again ${wait}, or on a device you have signed in on before.`,
  'sign-in-device': (wait) => `Too many sign-in attempts on this device. Try again ${wait}.`,
  'known-devices': (wait) => `Too many sign-ins to this account in a short time. Try again ${wait}.`,
  'password-checks': (wait) => `Too many wrong passwords for this account. Try again ${wait}.`,
  'registration-network': (wait) => `Too many accounts have been created from your network. Try again ${wait}.`,
  'registration-account': (wait) => `Too many attempts to create this account. Try again ${wait}.`,
  'setup-code': (wait) => `Too many set-up codes tried. Try again ${wait}.`,
  'class-codes': (wait) => `Too many wrong class codes. Ask your teacher for the code and try again ${wait}.`,
  'students-added': (wait) => `You have added many students in a short time. Try again ${wait}.`,
  'roster-imports': (wait) => `You have imported many class lists in a short time. Try again ${wait}.`,
  'quiz-bytes': (wait) => `You have sent many large quizzes in a short time. Try again ${wait}.`,
  'large-requests': (wait) =>
    `Your account is already sending other large requests. Let them finish, then try again ${wait}.`,
  'password-work': (wait) => `Many people are signing in right now. Try again ${wait}.`,
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
 * test pins a text, it is this one. A code without a text fails the typecheck.
 */
export const FAILURE_TEXTS = {
  // ---- The request cannot be read ----------------------------------------------------------
  // The first field problem says it, in the client's words for its code (decision 026, addenda).
  VALIDATION_FAILED: ({ fieldErrors }) =>
    fieldErrors?.[0]
      ? fieldErrorText(fieldErrors[0])
      : 'Something you sent is not valid. Check the form and try again.',
  UNKNOWN_FIELD: `This page sent something the server does not accept: it may be out of date. ${RELOAD_AND_RETRY}`,
  MALFORMED_REQUEST: `The server could not read the request: it is not valid or holds too much at once. ${RELOAD_AND_RETRY}`,
  REQUEST_INTERRUPTED: 'The request was interrupted before it arrived. Try again.',
  REQUEST_REFUSED: ({ status }) => `The server refused the request (HTTP ${status ?? 400}). ${RELOAD_AND_RETRY}`,
  // ---- Who is calling ----------------------------------------------------------------------
  NOT_SIGNED_IN: 'Your session is not valid. Please log in again.',
  SESSION_EXPIRED: 'Your session has expired. Please log in again.',
  SIGNED_OUT:
    'You were signed out because your password was changed or you signed out of all devices. Please log in again.',
  ACCOUNT_REMOVED: 'Your account no longer exists.',
  ACCOUNT_DEACTIVATED: "Your account has been deactivated by your school's administrator.",
  WRONG_CREDENTIALS: ({ endpoint }) =>
    endpoint === logInStudent ? 'Username or password is incorrect' : 'Email or password is incorrect',
  WRONG_CURRENT_PASSWORD: 'Your current password is not correct',
  FORBIDDEN: 'This is not open to you: it belongs to another class, another teacher or the other role.',
  PASSWORD_CHANGE_REQUIRED: 'Your teacher reset your password. Choose a new one to continue.',
  // ---- What the request is about -----------------------------------------------------------
  NOT_FOUND: (facts) =>
    isAbout(facts, 'quiz')
      ? 'This quiz does not exist'
      : isAbout(facts, 'resources')
        ? 'This resource no longer exists'
        : 'This no longer exists: it may have been deleted.',
  ROUTE_NOT_FOUND: `The server does not know this request: the page may be out of date. ${RELOAD_AND_RETRY}`,
  ACCOUNT_EXISTS: 'This account already exists',
  // Adding a student to a class and the student registration both make a student; only the teacher's form makes a teacher.
  EMAIL_TAKEN: ({ endpoint }) =>
    endpoint === registerTeacher
      ? 'A teacher with this email already exists'
      : 'A student with this email already exists',
  ROLL_NUMBER_TAKEN: 'This account username is already taken',
  TASK_LIST_CHANGED: 'Your task list changed elsewhere; it has been reloaded',
  SCHOOL_ALREADY_SET_UP: 'This school has been set up already. Log in instead.',
  SETUP_CODE_WRONG: "This is not the set-up code. Copy it from the server's log.",
  DEMO_IN_USE: 'Other teachers use the demo classes, or it holds the only administrator.',
  INVITATION_NOT_FOUND: 'No invitation has this code. Open the link exactly as you were given it.',
  INVITATION_USED: 'This invitation has been used already. Ask your administrator for a new one.',
  INVITATION_EXPIRED: 'This invitation has expired. Ask your administrator for a new one.',
  INVITATION_REVOKED: 'This invitation has been withdrawn. Ask your administrator for a new one.',
  LAST_ADMINISTRATOR: 'The school needs an active administrator: make another teacher an administrator first.',
  CLASS_NAME_TAKEN: 'The school already has a class with this name',
  CLASS_CODE_INVALID:
    'This class code does not work. Check it with your teacher: it may have been changed or turned off.',
  LAST_CLASS_TEACHER: 'A class needs a teacher: add another teacher before removing this one.',
  TEACHER_NOT_ACTIVE: 'Choose an active teacher of the school.',
  CLASS_HAS_TEACHER:
    'This class has a teacher now: another administrator gave it one. Its teachers can add co-teachers.',
  CLASS_ARCHIVED: 'This class is archived. Unarchive it first.',
  ROSTER_ROWS_INVALID: 'Some rows of the file have problems, so nothing was imported. Check the file again.',
  IMPORT_RUNNING: 'Your previous import is still running. Wait for it to finish, then try again.',
  QUIZ_CLOSED: 'The deadline of this quiz has passed',
  QUIZ_HAS_ATTEMPTS: 'Students have started this quiz: its questions and options stay as they are',
  QUIZ_ARCHIVED: 'This quiz is archived',
  MARK_CHANGED: 'Another teacher marked this essay meanwhile. Their mark is shown now: mark again if needed.',
  QUIZ_CHANGED:
    'This quiz was changed elsewhere since you opened it. Reload the page to see the changes, then edit again.',
  ACCOMMODATION_TOO_LATE: 'The quiz has closed: its accommodations can no longer change',
  QUIZ_NOT_STARTED: 'Start the quiz before answering it',
  // The server words the time-up closing apart, but only in its message: one text says both.
  QUIZ_ALREADY_SUBMITTED:
    'You have already submitted this quiz, or its time ran out and your saved answers were submitted.',
  // ---- Sizes and rates ---------------------------------------------------------------------
  PAYLOAD_TOO_LARGE: ({ endpoint }) =>
    endpoint?.body && 'form' in endpoint.body
      ? 'The file is too large to upload.'
      : 'The request is too large to send.',
  STORAGE_QUOTA_EXCEEDED:
    'This file does not fit in your storage space. Delete files you no longer need, or ask your administrator for more space.',
  UNSUPPORTED_MEDIA_TYPE: `The server could not read the request: it was not sent in a form it accepts. ${RELOAD_AND_RETRY}`,
  FILE_TYPE_NOT_ALLOWED:
    'This type of file cannot be shared. Upload a document (PDF, Office, OpenDocument, text), an image, audio or a video.',
  RANGE_NOT_SATISFIABLE: 'That part of the file does not exist. Open the file again.',
  UPGRADE_REQUIRED: 'The meeting needs a live connection this browser did not open. Reload the page and join again.',
  // Which budget refused is the throttle's verdict: the body names it and the client words it.
  // A 429 that names none (a proxy's) gets the general text.
  THROTTLED: (facts) =>
    facts.throttleLimit
      ? THROTTLE_TEXTS[facts.throttleLimit](
          facts.retryAfterSeconds === undefined ? 'in a moment' : formatWait(facts.retryAfterSeconds),
        )
      : `Too many requests at once. ${tryAgain(facts)}.`,
  // ---- The server --------------------------------------------------------------------------
  INTERNAL_ERROR: ({ requestId, serverMessage }) => {
    const reference = requestId ?? referenceOf(serverMessage);
    return `Something went wrong on our side. Please try again.${reference ? ` (Reference: ${reference})` : ''}`;
  },
  UNAVAILABLE: (facts) => `The server is not available just now. ${tryAgain(facts)}.`,
  SERVER_BUSY: (facts) => `The server is busy with other large requests. ${tryAgain(facts)}.`,
  // ---- No answer in our envelope -----------------------------------------------------------
  UNREACHABLE: CANNOT_REACH_SERVER,
  UNEXPECTED_ANSWER: ({ status }) =>
    status !== undefined && status >= 500
      ? `The server is not answering just now (HTTP ${status}). Try again in a moment.`
      : `The server answered unexpectedly (HTTP ${status ?? 0}). ${RELOAD_AND_RETRY}`,
} satisfies Record<FailureCode, FailureText>;

/** The text a person reads for a failure. */
export function failureText(code: FailureCode, facts: FailureFacts = {}): string {
  const text: FailureText = FAILURE_TEXTS[code];
  return typeof text === 'string' ? text : text(facts);
}
