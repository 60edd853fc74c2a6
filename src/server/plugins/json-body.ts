import type { FastifyInstance } from 'fastify';
import { JSON_MAX_DEPTH, JSON_MAX_VALUES } from '#shared/limits';
import { AppError } from '../errors.ts';

/**
 * The one parser of JSON bodies (decision 023). JSON.parse is fast on ordinary bodies, but its
 * time grows with the nesting and the number of values: 1.3 MB of `[[[…]]]` takes ~180 ms of
 * the only thread, 1.3 MB of small members ~70 ms, and twenty of them at once stalled every
 * other request for seconds. So the text is scanned once first, and a body nested deeper than
 * JSON_MAX_DEPTH or holding more than JSON_MAX_VALUES values is refused (400) before parsing.
 * The scan stops at the first level or value too many, so a hostile body costs little more
 * than its reading.
 */

export type JsonLimits = { maxDepth: number; maxValues: number };

/** What the scan saw, up to where it stopped: the deepest nesting and the values counted. */
export type JsonShape = { depth: number; values: number; exceeded?: 'depth' | 'values' };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isJsonWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** Index of the quote that closes the string opened at `openingQuote` (text.length when none does). */
function closingQuoteOf(text: string, openingQuote: number): number {
  let quote = openingQuote;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote === -1) return text.length;
    // Escaped when an odd number of backslashes stands right before it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
}

/**
 * Nesting depth and number of values (array items and object members, at any depth) of JSON
 * text, in one pass that skips strings (brackets and commas inside text do not count) and
 * stops as soon as a limit is passed. Text that is not JSON is measured as far as it goes;
 * JSON.parse, which stops at its first error, refuses it (everything before that error was
 * counted).
 */
export function measureJson(text: string, limits: JsonLimits): JsonShape {
  let depth = 0;
  let deepest = 0;
  let values = 0;
  // Just after [ or {: the next token is a first value, unless it closes the container.
  let isOpening = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isJsonWhitespace(code)) continue;
    if (isOpening) {
      isOpening = false;
      if (code !== CLOSE_ARRAY && code !== CLOSE_OBJECT) values += 1;
    }
    if (code === QUOTE) {
      index = closingQuoteOf(text, index);
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      isOpening = true;
      if (depth > deepest) deepest = depth;
      if (depth > limits.maxDepth) return { depth: deepest, values, exceeded: 'depth' };
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
      // A closer with nothing open: JSON.parse stops right here.
      if (depth < 0) break;
    } else if (code === COMMA) {
      values += 1;
    }
    if (values > limits.maxValues) return { depth: deepest, values, exceeded: 'values' };
  }
  return { depth: deepest, values };
}

const TOO_DEEP = `The request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of objects and arrays are accepted.`;
const TOO_MANY_VALUES = `The request body holds too many values: at most ${JSON_MAX_VALUES.toLocaleString('en-GB')} list items and object members are accepted.`;

/**
 * Replaces Fastify's JSON parser: an empty body is no body (the profile calls are POSTs with
 * nothing to say), a body nested too deeply or holding too many values is refused before
 * parsing, and the rest goes to Fastify's own parser, which keeps its __proto__ / constructor
 * poisoning protection. Every refusal is a 400 in the error envelope.
 */
export function acceptJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const limits = { maxDepth: JSON_MAX_DEPTH, maxValues: JSON_MAX_VALUES };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    const shape = measureJson(text, limits);
    if (shape.exceeded) return done(new AppError(400, shape.exceeded === 'depth' ? TOO_DEEP : TOO_MANY_VALUES));
    parseJson(request, text, (error, parsed) => {
      if (error) return done(new AppError(400, 'The request body is not valid JSON'), undefined);
      done(null, parsed);
    });
  });
}
