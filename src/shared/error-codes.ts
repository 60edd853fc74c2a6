/**
 * Every failure of an /api endpoint says what went wrong as one of these codes, beside the
 * message a person reads (decision 026). Clients decide what to do from the code (and the
 * field errors), never from the message or the HTTP status; the status of a code is fixed
 * here, so the server cannot answer one code with two statuses.
 */
export const ERROR_CODES = {
  // ---- The request cannot be read --------------------------------------------------------
  VALIDATION_FAILED: { status: 400, meaning: 'An input is missing or not valid; `errors` names each field' },
  UNKNOWN_FIELD: {
    status: 400,
    meaning: 'The body carries a key the endpoint does not know (decision 025); `errors` names it. Nothing changed',
  },
  MALFORMED_REQUEST: {
    status: 400,
    meaning: 'The body is not valid JSON or multipart, nests too deeply, or the address cannot be read',
  },
  REQUEST_INTERRUPTED: { status: 400, meaning: 'The client hung up before the request was read' },
  REQUEST_REFUSED: { status: '4XX', meaning: 'Another refusal of the HTTP layer (its status says which)' },
  // ---- Who is calling ---------------------------------------------------------------------
  NOT_SIGNED_IN: { status: 401, meaning: 'No bearer token, or one this server did not sign' },
  SESSION_EXPIRED: { status: 401, meaning: 'The token is older than its 12 hours' },
  SIGNED_OUT: {
    status: 401,
    meaning: 'The session ended: the password was changed or the account signed out of all devices',
  },
  ACCOUNT_REMOVED: { status: 401, meaning: 'The account of the token no longer exists' },
  WRONG_CREDENTIALS: { status: 401, meaning: 'Login: the email or username and password do not match an account' },
  ACCOUNT_DEACTIVATED: {
    status: 401,
    meaning: "The school's administrator has deactivated the teacher account: its sessions ended, sign-in is refused",
  },
  WRONG_CURRENT_PASSWORD: { status: 400, meaning: 'Change password: the current password is not right' },
  FORBIDDEN: { status: 403, meaning: 'The caller may not do this: another role, or not theirs' },
  SETUP_CODE_WRONG: {
    status: 403,
    meaning: "The first run's set-up code is not the one the server printed in its log (decision 050)",
  },
  PASSWORD_CHANGE_REQUIRED: {
    status: 403,
    meaning:
      'A teacher reset the password: this session may only choose a new one (change-password), read its profile or sign out',
  },
  // ---- What the request is about ---------------------------------------------------------
  NOT_FOUND: { status: 404, meaning: 'What the address names (a quiz, a resource, a file) does not exist' },
  ROUTE_NOT_FOUND: { status: 404, meaning: 'No endpoint has this method and path' },
  ACCOUNT_EXISTS: { status: 409, meaning: 'Another account already has a detail that must be unique' },
  EMAIL_TAKEN: { status: 409, meaning: 'Another account of the role has this email (however it is spelt)' },
  ROLL_NUMBER_TAKEN: { status: 409, meaning: 'Another student has this account username (however it is spelt)' },
  TASK_LIST_CHANGED: { status: 409, meaning: 'The list changed elsewhere since its `version`: read it again' },
  SCHOOL_ALREADY_SET_UP: { status: 409, meaning: 'The school has been set up already; a second setup changes nothing' },
  INVITATION_NOT_FOUND: { status: 404, meaning: 'No invitation has this code' },
  INVITATION_USED: { status: 409, meaning: 'The invitation has been used already (each is single use)' },
  INVITATION_EXPIRED: { status: 410, meaning: 'The invitation is older than its 7 days' },
  INVITATION_REVOKED: { status: 410, meaning: 'An administrator revoked the invitation' },
  DEMO_IN_USE: {
    status: 409,
    meaning:
      "Removing the demo would take other people's work with it (their quizzes or resources in a demo class) or leave the school without an administrator. Nothing was removed",
  },
  LAST_ADMINISTRATOR: {
    status: 409,
    meaning: 'The change would leave the school without an active administrator',
  },
  CLASS_NAME_TAKEN: { status: 409, meaning: 'The school has a class of this name already (however it is spelt)' },
  CLASS_CODE_INVALID: {
    status: 400,
    meaning: 'No active class has this join code: mistyped, rotated, turned off or archived. Nothing was created',
  },
  LAST_CLASS_TEACHER: {
    status: 409,
    meaning: 'A class keeps at least one active teacher: add another before removing this one',
  },
  TEACHER_NOT_ACTIVE: { status: 400, meaning: 'The co-teacher must be an active teacher of the school' },
  CLASS_HAS_TEACHER: {
    status: 409,
    meaning: 'The class has a teacher already (another administrator was quicker): its teachers add co-teachers',
  },
  CLASS_ARCHIVED: { status: 409, meaning: 'The class is archived: unarchive it before adding to it' },
  ROSTER_ROWS_INVALID: {
    status: 400,
    meaning:
      'Rows of the class list have problems (`errors` names each as `rows.<row>.<field>`): nothing was imported. Check the file again',
  },
  IMPORT_RUNNING: { status: 409, meaning: "An import of the caller's is still running: wait for it to finish" },
  QUIZ_CLOSED: { status: 403, meaning: 'The deadline of the quiz has passed: it cannot be started' },
  ACCOMMODATION_TOO_LATE: {
    status: 409,
    meaning: 'The quiz has closed (its answer key may be out): its accommodations can no longer be given or changed',
  },
  QUIZ_NOT_STARTED: { status: 409, meaning: 'The attempt has not been started' },
  QUIZ_ALREADY_SUBMITTED: { status: 409, meaning: 'The attempt is over: submitted, or closed when time ran out' },
  QUIZ_HAS_ATTEMPTS: {
    status: 409,
    meaning:
      'Students have started the quiz: questions and options can no longer be added, removed or reordered, nor a type or the class changed (decision 036). Nothing changed',
  },
  QUIZ_CHANGED: {
    status: 409,
    meaning:
      'The quiz was changed (in another tab, or by a regrade) since the editor read it: nothing changed; read it again',
  },
  MARK_CHANGED: {
    status: 409,
    meaning:
      'Another teacher marked this essay since you opened it (decision 046): nothing changed; read their mark and mark again if needed',
  },
  QUIZ_ARCHIVED: { status: 409, meaning: 'The quiz is archived (deleted with attempts): it can no longer be changed' },
  ASSIGNMENT_CHANGED: {
    status: 409,
    meaning:
      'The assignment was changed elsewhere since the editor read it (decision 058): nothing changed; read it again',
  },
  ASSIGNMENT_HAS_HAND_INS: {
    status: 409,
    meaning:
      'Work has been handed in: the points, a class or a later publish time can no longer change (decision 058). Nothing changed',
  },
  ASSIGNMENT_ARCHIVED: {
    status: 409,
    meaning: 'The assignment is archived (deleted with hand-ins): it takes no new work and no edits',
  },
  ASSIGNMENT_CLOSED: {
    status: 409,
    meaning: 'The due time has passed and late work is not accepted: nothing was handed in or taken back',
  },
  HAND_IN_CHANGED: {
    status: 409,
    meaning:
      'The hand-in changed (in another tab, or by its student) since its `version` was read: nothing changed; read it again',
  },
  HAND_IN_LOCKED: {
    status: 409,
    meaning:
      'The hand-in is not in a state that allows this (decision 058): handed in (no draft save), graded (no taking back), not handed in (no grade) or not graded (no return)',
  },
  GRADEBOOK_CHANGED: {
    status: 409,
    meaning:
      "The class's quizzes or assignments changed since the gradebook's columns were read (decision 062): read the columns again",
  },
  HAND_IN_FILES_FULL: {
    status: 409,
    meaning: 'The hand-in holds the most files it may (decision 061): remove one before adding another. Nothing stored',
  },
  NO_LIVE_QUESTIONS: {
    status: 409,
    meaning:
      'The quiz has only essays and descriptions, which a live game skips (decision 066): nothing to play. Nothing was created',
  },
  // ---- Sizes and rates ---------------------------------------------------------------------
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body (or the file) is over the limit of the endpoint' },
  STORAGE_QUOTA_EXCEEDED: { status: 413, meaning: "The file does not fit in the teacher's storage space" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is not of the content type the endpoint reads' },
  FILE_TYPE_NOT_ALLOWED: { status: 415, meaning: 'The uploaded file is not of a type the library accepts' },
  RANGE_NOT_SATISFIABLE: { status: 416, meaning: 'The byte range asked for is outside the file' },
  UPGRADE_REQUIRED: { status: 426, meaning: 'A plain HTTP request to the meeting socket: open a WebSocket' },
  THROTTLED: { status: 429, meaning: 'Too many attempts; Retry-After says how many seconds to wait' },
  // ---- The server --------------------------------------------------------------------------
  INTERNAL_ERROR: { status: 500, meaning: 'A fault of ours; the message carries a reference for its log line' },
  UNAVAILABLE: { status: 503, meaning: 'The database does not answer' },
  SERVER_BUSY: {
    status: 503,
    meaning: 'The server stayed busy with other large bodies (decision 023); Retry-After says when to try again',
  },
} as const satisfies Record<string, { status: number | '4XX'; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes that end the session the request was made with: the client goes to the login. */
export const SESSION_ENDED_CODES = [
  'NOT_SIGNED_IN',
  'SESSION_EXPIRED',
  'SIGNED_OUT',
  'ACCOUNT_REMOVED',
  'ACCOUNT_DEACTIVATED',
] as const satisfies readonly ErrorCode[];
