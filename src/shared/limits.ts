/**
 * Size bounds for every text field the API accepts. One table so the server's
 * validation, the client's form hints and the database column sizes agree.
 */
export const FIELD_LIMITS = {
  name: 100,
  email: 254, // RFC 5321 path limit
  subject: 100,
  rollNumber: 50,
  className: 50,
  passwordMin: 8,
  // argon2 hashes any length, but an unbounded password is a cheap DoS lever.
  passwordMax: 128,
} as const;

/**
 * UTF-8 bytes JSON.stringify writes, at most, for one character (UTF-16 unit) of text our
 * schemas accept: 3 for most of the Basic Multilingual Plane (€, CJK; a surrogate pair is 4
 * bytes for two units), 2 for an escaped quote, backslash, tab or newline. The 6-byte \u
 * escapes are only for control characters and lone surrogates, which text fields refuse.
 * Body limits are sized with it.
 */
export const JSON_BYTES_PER_CHARACTER = 3;

/**
 * Body limit of the JSON calls that do not declare their own (decision 023): every form. The
 * largest valid one, a video link with every field full of 3-byte characters, is about 13 kB.
 * add-quiz, update-task and the attempt calls declare theirs, sized from their limits.
 */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Deepest nesting of objects and arrays a JSON body may have; the body is refused before it is
 * parsed (decision 023). The deepest valid body, add-quiz, needs 5 (body, quiz, questions, a
 * question, its options).
 */
export const JSON_MAX_DEPTH = 32;

/**
 * Most values (array items and object members, at any depth) a JSON body may hold; refused
 * before it is parsed, since parsing time grows with them (decision 023). The valid body with
 * the most, add-quiz with 200 typed questions of 10 options (issue 20), an image on each
 * question and option (80 values a question), has about 16,010.
 */
export const JSON_MAX_VALUES = 17_000;

/** Session tokens live 12 hours (ARCHITECTURE: auth). */
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
