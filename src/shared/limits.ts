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

/** Whole-request ceiling for JSON bodies; uploads get their own limit later. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Deepest nesting of objects and arrays a JSON body may have; the body is refused before it is
 * parsed (decision 023). The deepest valid body, add-quiz, needs 5 (body, quiz, questions, a
 * question, its options).
 */
export const JSON_MAX_DEPTH = 32;

/**
 * Most values (array items and object members, at any depth) a JSON body may hold; refused
 * before it is parsed, since parsing time grows with them (decision 023). The valid body with
 * the most, add-quiz with 200 questions of 50 option rows (empty rows included, which the
 * server drops), has about 10,800.
 */
export const JSON_MAX_VALUES = 12_000;

/** Session tokens live 12 hours (ARCHITECTURE: auth). */
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
