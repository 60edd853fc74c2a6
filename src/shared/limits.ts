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

/** Session tokens live 12 hours (ARCHITECTURE: auth). */
export const TOKEN_LIFETIME_SECONDS = 12 * 60 * 60;
