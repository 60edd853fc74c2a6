import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, tooManyRequests } from '../errors.ts';
import { formatWait } from '#shared/format-wait';

/**
 * Large JSON bodies, taken a few at a time (decision 023's addendum). A valid 1.3 MB quiz costs
 * ~15–30 ms of the only thread (parse, validation, the insert) and a megabyte that PGlite
 * writes in that same thread (a new WAL segment holds it for 300–800 ms). Twenty sent together
 * queued every other request, health included, for seconds. So:
 *
 * - per account, at most `perAccount` bodies over `thresholdBytes` at once, from the moment
 *   their headers arrive until they are answered; one more is refused with 429 before a byte
 *   of it is read;
 * - server-wide, one large body is worked on (parsed, validated, handled) at a time, and the
 *   next starts only after a pause: as long as the last one's work (large bodies take at most
 *   half of the thread) and long enough to keep to `serverBytesPerSecond`. The others, already
 *   received, wait in arrival order; one that has waited `maxWaitMs` is answered 503. Reading a
 *   body is not work: a slow sender holds only its own account's turns, never the server's.
 */
export type LargeBodyLimits = {
  /** A body over this many bytes is large: only add-quiz, the attempt calls and update-task allow one. */
  thresholdBytes: number;
  perAccount: number;
  /** Bytes of large bodies worked on per second, all accounts together. */
  serverBytesPerSecond: number;
  maxWaitMs: number;
};

export const DEFAULT_LARGE_BODY_LIMITS: LargeBodyLimits = {
  // Every form fits in 16 kB; 64 kB is 200 questions' worth of short choices.
  thresholdBytes: 64 * 1024,
  // A teacher saving a quiz while another tab saves one; a student's submission and a late save.
  perAccount: 2,
  // Two of the largest quizzes a second: far more than a school's teachers send, and a tenth of
  // the rate at which twenty teachers' big quizzes stalled the server for seconds.
  serverBytesPerSecond: 4 * 1024 * 1024,
  maxWaitMs: 10_000,
};

/** Seconds a refused sender is asked to wait: a large body is answered within about that. */
const PER_ACCOUNT_RETRY_SECONDS = 1;
const SERVER_BUSY_RETRY_SECONDS = 5;

/**
 * A large body refused before it is read is not read at all: the answer says the connection
 * closes, and it closes once the answer is sent, as Fastify does when its body parser refuses
 * one (the scan's 400). Read and dropped instead, a flood of refused 1.3 MB bodies kept the
 * server busy reading: health p99 went from 123 ms under the scan's 400s to 1.3 s (load 4-8).
 */
export function refuseUnreadBody(reply: FastifyReply): void {
  void reply.header('connection', 'close');
}

type Held = { account: string; turn?: { startedAt: number; bytes: number } };
type Waiter = { start: () => void };

export type LargeBodyGate = ReturnType<typeof limitLargeBodies>;

/** Installs the per-account limit (preParsing) and returns the server-wide turn taker for the JSON reader. */
export function limitLargeBodies(app: FastifyInstance, limits: LargeBodyLimits) {
  const inFlight = new Map<string, number>();
  const held = new WeakMap<FastifyRequest, Held>();
  const waiting: Waiter[] = [];
  let isWorking = false;
  let nextStartAt = 0;
  let pumpTimer: NodeJS.Timeout | undefined;

  const accountOf = (request: FastifyRequest) =>
    request.user ? `${request.user.role}:${request.user.id}` : `network:${request.ip}`;

  /** A body announced over the threshold, or sent in chunks of unknown length to a route that allows a large one. */
  function isLarge(request: FastifyRequest): boolean {
    const routeLimit = request.routeOptions.bodyLimit ?? 0;
    if (routeLimit <= limits.thresholdBytes) return false;
    const declared = request.headers['content-length'];
    if (declared !== undefined) return Number(declared) > limits.thresholdBytes;
    return request.headers['transfer-encoding'] !== undefined;
  }

  /**
   * Starts the first waiting body when the lane is free and its pause is over. Always from a
   * timer, never in the chain of promises that ended the last one: PGlite's statements resolve
   * as microtasks, so a body started there would run before any socket is read, and the next
   * after it (450 ms stretches without I/O in the profile).
   */
  function pump() {
    if (isWorking || pumpTimer || waiting.length === 0) return;
    pumpTimer = setTimeout(
      () => {
        pumpTimer = undefined;
        if (isWorking) return;
        const next = waiting.shift();
        if (!next) return;
        isWorking = true;
        next.start();
      },
      Math.max(0, nextStartAt - performance.now()),
    );
  }

  function release(request: FastifyRequest) {
    const entry = held.get(request);
    if (!entry) return;
    held.delete(request);
    const count = (inFlight.get(entry.account) ?? 1) - 1;
    if (count > 0) inFlight.set(entry.account, count);
    else inFlight.delete(entry.account);
    if (!entry.turn) return;
    const now = performance.now();
    const workedMs = now - entry.turn.startedAt;
    nextStartAt = Math.max(
      now + workedMs,
      entry.turn.startedAt + (entry.turn.bytes * 1000) / limits.serverBytesPerSecond,
    );
    isWorking = false;
    pump();
  }

  app.addHook('preParsing', async (request, reply, payload) => {
    if (!isLarge(request)) return payload;
    const account = accountOf(request);
    const count = inFlight.get(account) ?? 0;
    if (count >= limits.perAccount) {
      request.log.info({ largeBodies: count }, 'large body refused: the account has its share in flight');
      refuseUnreadBody(reply);
      throw tooManyRequests(
        `Too many large requests from your account at once: at most ${limits.perAccount} are taken together. ` +
          `Try again ${formatWait(PER_ACCOUNT_RETRY_SECONDS)}.`,
        { limit: 'large-requests', retryAfterSeconds: PER_ACCOUNT_RETRY_SECONDS },
      );
    }
    inFlight.set(account, count + 1);
    held.set(request, { account });
    return payload;
  });
  // The handler is done when its answer is sent (Fastify calls onSend even for a client that
  // has gone); onResponse covers the answers sent without it.
  app.addHook('onSend', async (request, _reply, payload) => {
    release(request);
    return payload;
  });
  app.addHook('onResponse', async (request) => release(request));

  return {
    /**
     * Resolves when a received body of `bytes` may be worked on: at once for a small one,
     * otherwise in its turn (held until the request is answered). Rejects with 503 after
     * maxWaitMs.
     */
    async takeWorkTurn(request: FastifyRequest, bytes: number): Promise<void> {
      // Not held: a route whose limit is under the threshold, so never more than it.
      const entry = held.get(request);
      if (bytes <= limits.thresholdBytes || !entry || entry.turn) return;
      await new Promise<void>((resolve, reject) => {
        let hasGivenUp = false;
        const waiter: Waiter = {
          start: () => {
            if (hasGivenUp) {
              // Its 503 is sent: the turn goes on to the next.
              isWorking = false;
              return pump();
            }
            clearTimeout(timer);
            entry.turn = { startedAt: performance.now(), bytes };
            resolve();
          },
        };
        const timer = setTimeout(() => {
          hasGivenUp = true;
          const index = waiting.indexOf(waiter);
          if (index !== -1) waiting.splice(index, 1);
          request.log.warn({ waitedMs: limits.maxWaitMs }, 'large body refused: the server stayed busy');
          reject(
            new AppError(
              'SERVER_BUSY',
              `The server is busy with other large requests. Try again ${formatWait(SERVER_BUSY_RETRY_SECONDS)}.`,
              { headers: { 'retry-after': String(SERVER_BUSY_RETRY_SECONDS) } },
            ),
          );
        }, limits.maxWaitMs);
        waiting.push(waiter);
        pump();
      });
    },
  };
}
