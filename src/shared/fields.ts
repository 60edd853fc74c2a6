import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { identityKey } from './identity.ts';
import { FIELD_LIMITS } from './limits.ts';
import { LOCALE_CODES } from './locales.ts';

/** Field builders shared by every payload schema, so all forms speak the same messages. */

// PostgreSQL text cannot hold NUL, and no person types control characters.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

// A lone UTF-16 surrogate is not text: PostgreSQL's jsonb refuses it, and no keyboard types it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a text holds characters no person types (control characters, broken UTF-16). */
export const hasForbiddenCharacters = (value: string) => CONTROL_CHARACTERS.test(value) || LONE_SURROGATE.test(value);

// What shows on a screen: anything but white space, the default-ignorable code points (zero-width
// spaces and joiners, word joiner, BOM, soft hyphen, variation selectors, Hangul fillers, bidi
// marks) and the other format characters, and the blank braille cell. The prepended concatenation
// marks (Unicode's Prepended_Concatenation_Mark: Arabic, Syriac, Kaithi number signs) are format
// characters drawn as a sign, so they show.
const SHOWS_SOMETHING =
  /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]|[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]/u;

/**
 * True when a text would show as blank (issue 30 point 5): empty, spaces, or only invisible
 * characters. The one rule for every human-readable text: a required one (a person's, a
 * parent's, a class's or a school's name, a subject, a title) refuses it as missing, an
 * optional one reads it as left blank. Joiners inside real letters (Persian, Hindi) are fine.
 */
export const isBlankText = (value: string) => !SHOWS_SOMETHING.test(value);

const FORBIDDEN = fieldCode('FORBIDDEN_CHARACTERS');
const REQUIRED = fieldCode('REQUIRED');

/** Non-empty to the eye, bounded, without control characters: what every required text checks after trimming. */
const boundedText = (text: z.ZodMiniString<string>, max: number) =>
  text.check(
    z.minLength(1, { abort: true }),
    z.maxLength(max),
    z.refine((value) => !hasForbiddenCharacters(value), { params: FORBIDDEN }),
    z.refine((value) => !isBlankText(value), { abort: true, params: REQUIRED }),
  );

/** A trimmed, non-empty, bounded text without control characters. */
export const requiredText = (max: number) => boundedText(z.string().check(z.trim()), max);

/**
 * A text that identifies (decision 024): kept as typed in NFC, trimmed; compared by its key
 * (identityKey, or emailKey for an address), which must hold something visible and, spelled
 * out (a ligature, a full-width letter), stay within twice the bound: a unique index's entry
 * must fit in a page.
 */
export const identityText = (max: number, keyOf: (value: string) => string = identityKey) =>
  boundedText(z.string().check(z.normalize('NFC'), z.trim()), max).check(
    z.refine((value) => keyOf(value) !== '', { params: REQUIRED }),
    z.refine((value) => keyOf(value).length <= 2 * max, { params: fieldCode('TOO_LONG', { maximum: max }) }),
  );

/** A class name: one class however it is spelled ('10a ' and '10A', NFC and NFD). */
export const classNameText = () => identityText(FIELD_LIMITS.className);

/** One of the caller's classes, chosen from a list (decision 031): its id, never its name. */
export const classIdField = () => z.uuid();

/** A join code as typed; the server compares normalizeJoinCode (classes.ts) of it. */
export const joinCodeText = () =>
  z.string().check(
    z.trim(),
    z.minLength(1),
    // Invisible or other characters cannot be part of a code: said at once, without a look-up.
    z.refine((value) => value.length <= 20 && /^[A-Za-z0-9\s-]+$/.test(value), {
      params: fieldCode('CLASS_CODE_FORM'),
    }),
  );

/** A trimmed text, bounded, without control characters: may be empty. */
const cleanText = (max: number) =>
  z.string().check(
    z.trim(),
    z.maxLength(max),
    z.refine((value) => !hasForbiddenCharacters(value), { params: FORBIDDEN }),
  );

/**
 * A text that may be left blank (a class's or a resource's subject): trimmed, bounded, clean;
 * only invisible characters (isBlankText) is left blank too, and comes out as ''.
 */
export const blankableText = (max: number) =>
  z.pipe(
    cleanText(max),
    z.transform((value) => (isBlankText(value) ? '' : value)),
  );

/** Points from `minimum` to `maximum`, in halves (1, 1.5, 2…): questions, essay marks, assignments. */
export const halfPoints = (minimum: number, maximum: number) =>
  z.number().check(
    z.gte(minimum),
    z.lte(maximum),
    z.refine((value) => Number.isInteger(value * 2), { params: fieldCode('POINTS_NOT_HALVES') }),
  );

/** A text up to `max`, clean, trimmed after its checks; may be empty (an option, an essay's guidance, a comment). */
export const trimmedCleanText = (max: number) =>
  z.pipe(
    z.string().check(
      z.maxLength(max),
      z.refine((value) => !hasForbiddenCharacters(value), { params: FORBIDDEN }),
    ),
    z.transform((value) => value.trim()),
  );

/** "true"/"false" in a query string; absent reads as false. */
export const queryFlag = z.pipe(
  z.optional(z.enum(['true', 'false'])),
  z.transform((value) => value === 'true'),
);

/** An optional query text (a filter, a search): trimmed, bounded, clean; blank means absent. */
export const optionalQueryText = (max: number) =>
  z.pipe(
    z.optional(cleanText(max)),
    z.transform((value) => (value ? value : undefined)),
  );

/** An optional id in a query string (a class filter): blank means absent, anything else must be an id. */
export const optionalQueryId = () =>
  z.pipe(
    z.pipe(
      z.optional(z.string().check(z.trim())),
      z.transform((value) => (value ? value : undefined)),
    ),
    z.optional(z.uuid()),
  );

/** offset and limit of a paged list (query strings), with the list's own page sizes. */
export const pagingFields = (sizes: { pageSizeDefault: number; pageSizeMax: number }) => ({
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(1_000_000)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(sizes.pageSizeMax)), sizes.pageSizeDefault),
});

/**
 * JSON bytes a field the server accepts and does not read may take (issue 17): a profile object
 * sent back (a teacher's name, email and subject at their limits, 3 bytes a character, come to
 * about 1.6 kB), a number, a date. Unread, it must not be a way to make the server take a big
 * body: route limits count it at this size (decision 023), and the largest form with one (a
 * video link and its uploadedBy) still fits the 16 kB default.
 */
export const IGNORED_FIELD_MAX_BYTES = 2048;

const textEncoder = new TextEncoder();

/** Any JSON value of at most IGNORED_FIELD_MAX_BYTES: what an ignored field may hold. */
const ignoredValue = z.optional(
  z
    .unknown()
    .check(
      z.refine(
        (value) => value === undefined || textEncoder.encode(JSON.stringify(value)).length <= IGNORED_FIELD_MAX_BYTES,
        { params: fieldCode('INVALID', { maximumBytes: IGNORED_FIELD_MAX_BYTES }) },
      ),
    ),
);

/**
 * A request body's object: every key it may carry is named, so a misspelled or misplaced field
 * is refused with 400 naming it, never dropped with what it held (issue 17). `ignored` are keys
 * that clients send by contract (SPEC §7) and the server does not read (the token and the
 * server's own clock say who and when): accepted up to IGNORED_FIELD_MAX_BYTES (or the schema
 * the shape gives the key, which wins), and left out of what the schema outputs.
 */
export const bodyObject = <Shape extends z.core.$ZodShape, const Ignored extends readonly string[] = []>(
  shape: Shape,
  ignored: Ignored = [] as unknown as Ignored,
) =>
  z.pipe(
    z.strictObject({
      ...(Object.fromEntries(ignored.map((key) => [key, ignoredValue])) as {
        [Key in Ignored[number]]: typeof ignoredValue;
      }),
      ...shape,
    }),
    z.transform((value) => {
      const read = { ...value };
      for (const key of ignored) delete read[key as keyof typeof read];
      return read;
    }),
  );

/** A language the interface ships in (issue 32): the school's default or a person's choice. */
export const localeSchema = z.enum(LOCALE_CODES);
