import { t } from '@lingui/core/macro';
import type { AnswerValue } from '#shared/question-types';
import { ApiError, isWorthRetrying, type FailureCode } from '../../../lib/api.ts';

/** question id -> the type's answer (null clears it), as PUT /api/quiz/:id/answers takes them. */
export type Choices = Record<string, AnswerValue | null>;

/** Sends one batch; resolves once the server acknowledged it, throws (ApiError) otherwise. */
export type SendChoices = (choices: Choices, options: { keepalive: boolean }) => Promise<unknown>;

export type DeliveryState =
  | { status: 'idle' | 'saving' | 'saved' | 'retrying' }
  /** Never to be delivered: the attempt is over (409), or the server refused them (401, 403, 400…). */
  | { status: 'over' | 'refused'; message: string; lost: Choices };

/** Choices are sent this long after the last click, so a change of mind costs one request. */
export const SAVE_DEBOUNCE_MS = 400;
/**
 * Typed answers (short text, number) are sent this long after the last keystroke: a word is
 * one request, not one per letter. Never lost for it: a flush (leaving, hiding, submitting)
 * sends them at once.
 */
export const TYPING_DEBOUNCE_MS = 1500;
/** Waits between attempts to deliver, the last one repeated for as long as the page lives. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000] as const;

const isEmpty = (choices: Choices) => Object.keys(choices).length === 0;

/** The attempt is not open for answers: submitted, closed by the timer, or never started. */
const ATTEMPT_OVER: readonly FailureCode[] = ['QUIZ_ALREADY_SUBMITTED', 'QUIZ_NOT_STARTED'];

/**
 * The choices of one attempt on their way to the server (decision 022): debounced, sent one
 * request at a time so they arrive in the order they were made, kept and retried while they
 * cannot be delivered, sent at once (keepalive) when the page is hidden. Outside React, so it
 * outlives the screen that made the choices.
 */
export function createAnswerOutbox(send: SendChoices) {
  /** Made, not yet handed to a request (newest value per question). */
  let pending: Choices = {};
  /** The batch of the ordered channel's request now in flight. */
  let inFlight: Choices | null = null;
  /** The ordered channel: sends until nothing is pending; true when all of it was delivered. */
  let draining: Promise<boolean> | null = null;
  /** Keepalive requests sent beside the ordered channel as the page was hidden, with their batches. */
  const alongside = new Map<Promise<void>, Choices>();
  let debounceTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let hasDelivered = false;
  let ended: Extract<DeliveryState, { lost: Choices }> | { status: 'closed' } | null = null;
  let state: DeliveryState = { status: 'idle' };
  const listeners = new Set<() => void>();

  function update() {
    const next: DeliveryState =
      ended?.status === 'closed'
        ? { status: 'saved' }
        : (ended ??
          (failures > 0
            ? { status: 'retrying' }
            : !isEmpty(pending) || inFlight || alongside.size > 0
              ? { status: 'saving' }
              : { status: hasDelivered ? 'saved' : 'idle' }));
    if (next === state || (next.status === state.status && !('lost' in next))) return;
    state = next;
    for (const listener of [...listeners]) listener();
  }

  function delivered() {
    failures = 0;
    hasDelivered = true;
  }

  /** A batch that did not arrive: back in the queue under anything newer, or given up. */
  function handleFailure(batch: Choices, error: unknown) {
    if (ended) return;
    if (isWorthRetrying(error)) {
      pending = { ...batch, ...pending };
      failures += 1;
      clearTimeout(retryTimer);
      const delay = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1];
      retryTimer = setTimeout(() => void flush(), delay);
      return;
    }
    const message = error instanceof Error ? error.message : t`The server refused these answers.`;
    const status = error instanceof ApiError && ATTEMPT_OVER.includes(error.code) ? 'over' : 'refused';
    ended = { status, message, lost: { ...batch, ...pending } };
    pending = {};
    clearTimeout(debounceTimer);
    clearTimeout(retryTimer);
  }

  /**
   * Starts the ordered channel. Only with something pending and the outbox open: then the
   * first send (whose fetch starts before this returns) is awaited, so `draining` is set
   * before drain's last step clears it.
   */
  function startDraining(keepalive: boolean) {
    clearTimeout(retryTimer);
    draining = drain(keepalive);
  }

  async function drain(keepalive: boolean): Promise<boolean> {
    try {
      while (!ended && !isEmpty(pending)) {
        const batch = pending;
        pending = {};
        inFlight = batch;
        update();
        try {
          await send(batch, { keepalive });
          delivered();
        } catch (error) {
          handleFailure(batch, error);
          return false;
        } finally {
          inFlight = null;
        }
      }
      return !ended;
    } finally {
      // Cleared before anyone awaiting this run resumes, so they see a free channel.
      draining = null;
      update();
    }
  }

  /** Sends everything pending now; resolves true once all of it was delivered, false if not (yet). */
  async function flush({ keepalive = false } = {}): Promise<boolean> {
    clearTimeout(debounceTimer);
    for (;;) {
      if (ended) return false;
      if (draining) {
        if (!(await draining)) return false;
        continue;
      }
      if (isEmpty(pending)) return true;
      startDraining(keepalive);
    }
  }

  /**
   * Beside a request in flight, as the page is hidden: two requests for one question may
   * arrive in either order, so once both are done the newer choice is sent once more.
   */
  function sendAlongside(batch: Choices) {
    const earlier = draining;
    const shared = Object.keys(batch).filter((questionId) => inFlight && questionId in inFlight);
    const request: Promise<void> = send(batch, { keepalive: true }).then(
      async () => {
        delivered();
        alongside.delete(request);
        await earlier;
        if (shared.length === 0 || ended) return update();
        pending = { ...Object.fromEntries(shared.map((questionId) => [questionId, batch[questionId]!])), ...pending };
        void flush();
      },
      (error: unknown) => {
        alongside.delete(request);
        handleFailure(batch, error);
        update();
      },
    );
    alongside.set(request, batch);
    update();
  }

  /** Resolves when no request is in flight (scheduled retries are not waited for). */
  async function settled(): Promise<void> {
    while (draining || alongside.size > 0) await Promise.allSettled([draining, ...alongside.keys()]);
  }

  /**
   * Choices made but not acknowledged, newest last: newer than anything the server holds.
   * Those the server refused are among them: nothing else will ever deliver them.
   */
  function unacknowledged(): Choices {
    const lost = ended && 'lost' in ended ? ended.lost : {};
    return Object.assign({}, lost, inFlight, ...alongside.values(), pending) as Choices;
  }

  return {
    /**
     * Records a choice; it is sent SAVE_DEBOUNCE_MS (TYPING_DEBOUNCE_MS for a keystroke of a
     * typed answer) after the last one. Once the server
     * refused the outbox's choices, a new one is only recorded (it is lost too, and a
     * submission carries it: see flushForSubmission).
     */
    queue(questionId: string, option: AnswerValue | null, { isTyping = false } = {}) {
      if (ended?.status === 'over' || ended?.status === 'refused') {
        ended = { ...ended, lost: { ...ended.lost, [questionId]: option } };
        return update();
      }
      if (ended) return;
      pending = { ...pending, [questionId]: option };
      clearTimeout(debounceTimer);
      debounceTimer = setTimeout(() => void flush(), isTyping ? TYPING_DEBOUNCE_MS : SAVE_DEBOUNCE_MS);
      update();
    },

    flush,

    /**
     * The page is being hidden or closed: whatever is pending leaves now, in requests that
     * outlive the page. The fetch starts before this returns; nothing here may wait.
     */
    sendBeforeHiding() {
      clearTimeout(debounceTimer);
      if (ended || isEmpty(pending)) return;
      if (!draining) return startDraining(true);
      const batch = pending;
      pending = {};
      sendAlongside(batch);
    },

    settled,

    unacknowledged,

    /**
     * Before a submission: sends what is pending, waits for every request in flight (the
     * keepalive ones too), then returns what the submission must carry: the choices the
     * server has not acknowledged. Normally none; those that could not be delivered (offline,
     * refused) otherwise. Never the screen's whole map: an answer the server acknowledged
     * stays as the server holds it, even when another tab changed it since (issue 17).
     */
    async flushForSubmission(): Promise<Choices> {
      for (;;) {
        const isDelivered = await flush();
        await settled();
        // A keepalive request that shared a question with the ordered channel queues it again.
        if (!isDelivered || ended || (isEmpty(pending) && !draining)) return unacknowledged();
      }
    },

    /** The attempt was submitted: the server holds every choice, nothing more to send. */
    close() {
      ended = { status: 'closed' };
      pending = {};
      clearTimeout(debounceTimer);
      clearTimeout(retryTimer);
      update();
    },

    getState: () => state,

    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type AnswerOutbox = ReturnType<typeof createAnswerOutbox>;
