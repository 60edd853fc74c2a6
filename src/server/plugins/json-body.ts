import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { JSON_MAX_DEPTH, JSON_MAX_VALUES } from '#shared/limits';
import { AppError } from '../errors.ts';
import type { LargeBodyGate } from './large-bodies.ts';

/**
 * The one reader of JSON bodies (decision 023). JSON.parse is fast on ordinary bodies, but its
 * time grows with the nesting and the number of values: 1.3 MB of `[[[…]]]` takes ~180 ms of
 * the only thread, 1.3 MB of small members ~70 ms, and twenty of them at once stalled every
 * other request for tens of seconds. So the bytes are scanned as they arrive, and a body nested
 * deeper than JSON_MAX_DEPTH or holding more than JSON_MAX_VALUES values is refused (400) at
 * the first level or value too many: the rest of it is never gathered, decoded or parsed.
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

const isJsonWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * Nesting depth and number of values (array items and object members, at any depth) of UTF-8
 * JSON, fed in chunks as they arrive. Strings and their escapes are skipped, so brackets and
 * commas inside text do not count (the bytes of a multi-byte character are never ASCII, so
 * scanning bytes is exact). Stops counting at the first limit passed. Text that is not JSON
 * is measured as far as it goes; JSON.parse, which stops at its first error, refuses it
 * (everything before that error was counted).
 */
export class JsonShapeScanner {
  private depth = 0;
  private deepest = 0;
  private values = 0;
  private exceeded: JsonShape['exceeded'];
  /** Just after [ or {: the next token is a first value, unless it closes the container. */
  private isOpening = false;
  private isInString = false;
  /** An unpaired backslash ended the previous chunk inside a string: this chunk's first byte is escaped. */
  private isEscapePending = false;
  /** A closer with nothing open: JSON.parse stops there, so nothing after it matters. */
  private isPastEnd = false;

  constructor(private readonly limits: JsonLimits) {}

  /** Scans the next bytes; returns the limit they pass, if any (and ignores later chunks). */
  push(bytes: Uint8Array): JsonShape['exceeded'] {
    if (this.exceeded || this.isPastEnd) return this.exceeded;
    let index = 0;
    while (index < bytes.length) {
      if (this.isInString) {
        if (this.isEscapePending) {
          this.isEscapePending = false;
          index += 1;
          continue;
        }
        // Quote to quote: a quote ends the string unless an odd run of backslashes precedes it.
        // One search per quote, however many escapes the text holds (`\u00e9` every 6 bytes
        // was a search per escape: 4 ms a 1.3 MB body).
        const quote = bytes.indexOf(QUOTE, index);
        const end = quote === -1 ? bytes.length : quote;
        let backslashes = 0;
        while (end - backslashes - 1 >= index && bytes[end - backslashes - 1] === BACKSLASH) backslashes += 1;
        const isEscaped = backslashes % 2 === 1;
        if (quote === -1) {
          // The string goes on into the next chunk, whose first byte is escaped after an odd run.
          this.isEscapePending = isEscaped;
          return undefined;
        }
        if (!isEscaped) this.isInString = false;
        index = quote + 1;
        continue;
      }
      const byte = bytes[index]!;
      index += 1;
      if (isJsonWhitespace(byte)) continue;
      if (this.isOpening) {
        this.isOpening = false;
        if (byte !== CLOSE_ARRAY && byte !== CLOSE_OBJECT) this.values += 1;
      }
      if (byte === QUOTE) {
        this.isInString = true;
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        this.depth += 1;
        this.isOpening = true;
        if (this.depth > this.deepest) this.deepest = this.depth;
        if (this.depth > this.limits.maxDepth) return (this.exceeded = 'depth');
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        this.depth -= 1;
        if (this.depth < 0) {
          this.isPastEnd = true;
          return undefined;
        }
      } else if (byte === COMMA) {
        this.values += 1;
      }
      if (this.values > this.limits.maxValues) return (this.exceeded = 'values');
    }
    return undefined;
  }

  get shape(): JsonShape {
    const shape = { depth: this.deepest, values: this.values };
    return this.exceeded ? { ...shape, exceeded: this.exceeded } : shape;
  }
}

/** The shape of a whole JSON text (tests; the server scans chunks as they arrive). */
export function measureJson(text: string, limits: JsonLimits): JsonShape {
  const scanner = new JsonShapeScanner(limits);
  scanner.push(Buffer.from(text));
  return scanner.shape;
}

const REFUSALS = {
  depth: `The request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of objects and arrays are accepted.`,
  values: `The request body holds too many values: at most ${JSON_MAX_VALUES.toLocaleString('en-GB')} list items and object members are accepted.`,
};

/**
 * The body's bytes, read the way Fastify reads a body for a parser (its route's bodyLimit, a
 * declared Content-Length over it refused before reading, the length checked at the end),
 * and scanned as they arrive: refused at the first level or value too many, leaving the rest
 * of the body to be read and dropped by the server without being kept.
 */
function readJsonBody(request: FastifyRequest, payload: Readable, limits: JsonLimits): Promise<Buffer> {
  const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
  const declaredLength = Number(request.headers['content-length']);
  if (declaredLength > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  return new Promise((resolve, reject) => {
    const scanner = new JsonShapeScanner(limits);
    const chunks: Buffer[] = [];
    let receivedLength = 0;
    // Without listeners the stream still flows: the server reads the rest of a refused body and drops it.
    const detach = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    const stop = (error: Error) => {
      detach();
      reject(error);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      receivedLength += bytes.length;
      const encodedLength = (payload as { receivedEncodedLength?: number }).receivedEncodedLength ?? 0;
      if (receivedLength > limit || encodedLength > limit) return stop(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      const exceeded = scanner.push(bytes);
      if (exceeded) return stop(new AppError('MALFORMED_REQUEST', REFUSALS[exceeded]));
      chunks.push(bytes);
    }
    function onEnd(error?: Error & { statusCode?: number }) {
      if (error) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        return stop(error);
      }
      detach();
      const length = (payload as { receivedEncodedLength?: number }).receivedEncodedLength || receivedLength;
      if (!Number.isNaN(declaredLength) && length !== declaredLength) {
        return reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      }
      resolve(Buffer.concat(chunks, receivedLength));
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}

/**
 * Replaces Fastify's JSON parser: a body nested too deeply or holding too many values is
 * refused while it arrives, an empty body is no body (the profile calls are POSTs with nothing
 * to say), and the rest goes to Fastify's own parser, which keeps its __proto__ / constructor
 * poisoning protection. A large body is parsed in its turn (plugins/large-bodies.ts). A body
 * of another type (text/plain included) is refused 415 UNSUPPORTED_MEDIA_TYPE. Every
 * refusal is a 4xx (503 for a server that stayed busy) in the error envelope.
 */
export function acceptJsonBodies(app: FastifyInstance, largeBodies: LargeBodyGate): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const limits = { maxDepth: JSON_MAX_DEPTH, maxValues: JSON_MAX_VALUES };
  app.removeContentTypeParser('application/json');
  // Fastify reads text/plain as a string by default, which then failed the body schema as
  // VALIDATION_FAILED; no route reads text, so such a body is refused as 415 for its type.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', (request, payload, done) => {
    readJsonBody(request, payload, limits)
      .then(async (bytes) => {
        // A large body waits for one of the server's turns before the work starts (decision 023).
        await largeBodies.takeWorkTurn(request, bytes.length);
        return bytes;
      })
      .then(
        (bytes) => {
          const text = bytes.toString('utf8');
          if (text.trim() === '') return done(null, undefined);
          // Fastify's default parser answers through the callback; its type also admits a promise.
          void parseJson(request, text, (error, parsed) => {
            if (error) return done(new AppError('MALFORMED_REQUEST', 'The request body is not valid JSON'), undefined);
            done(null, parsed);
          });
        },
        (error: Error) => done(error, undefined),
      );
  });
}
