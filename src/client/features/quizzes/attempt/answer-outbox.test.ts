import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api.ts';
import { failureText } from '../../../lib/error-messages.ts';
import {
  createAnswerOutbox,
  RETRY_DELAYS_MS,
  SAVE_DEBOUNCE_MS,
  TYPING_DEBOUNCE_MS,
  type Choices,
} from './answer-outbox.ts';

// The client's texts are worded in the active locale: English, the code's own.
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

/** A server the test answers by hand: every request waits until the test settles it. */
function manualServer() {
  const requests: {
    choices: Choices;
    keepalive: boolean;
    acknowledge(): Promise<void>;
    fail(error: unknown): Promise<void>;
  }[] = [];
  const send = vi.fn((choices: Choices, { keepalive }: { keepalive: boolean }) => {
    let settle!: { resolve(): void; reject(error: unknown): void };
    const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    requests.push({
      choices,
      keepalive,
      acknowledge: async () => {
        settle.resolve();
        await vi.advanceTimersByTimeAsync(0);
      },
      fail: async (error) => {
        settle.reject(error);
        await vi.advanceTimersByTimeAsync(0);
      },
    });
    return promise;
  });
  return { send, requests, sent: () => requests.map((request) => request.choices) };
}

const offline = () => new ApiError('UNREACHABLE', { status: 0 });

/** An outbox whose first request (`choices`) is on its way, and the server it went to. */
async function outboxWithRequestOut(choices: Choices = { q1: 'A' }) {
  const server = manualServer();
  const outbox = createAnswerOutbox(server.send);
  for (const [questionId, option] of Object.entries(choices)) outbox.queue(questionId, option);
  await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
  return { server, outbox };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('answer outbox (decision 022)', () => {
  it('saves every type’s answer, and a typed one once the typing pauses, not per keystroke', async () => {
    const server = manualServer();
    const outbox = createAnswerOutbox(server.send);
    outbox.queue('multiple', ['o1', 'o3']);
    outbox.queue('truth', false);
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
    expect(server.sent()).toEqual([{ multiple: ['o1', 'o3'], truth: false }]);
    await server.requests[0]!.acknowledge();

    for (const text of ['P', 'Pa', 'Par', 'Pari', 'Paris']) {
      outbox.queue('short', text, { isTyping: true });
      await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
    }
    expect(server.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(TYPING_DEBOUNCE_MS - SAVE_DEBOUNCE_MS);
    expect(server.sent()).toEqual([{ multiple: ['o1', 'o3'], truth: false }, { short: 'Paris' }]);
  });

  it('never loses a typed answer still waiting: a flush (leaving, submitting) sends it at once', async () => {
    const server = manualServer();
    const outbox = createAnswerOutbox(server.send);
    outbox.queue('number', '3,5', { isTyping: true });
    const flushed = outbox.flush();
    expect(server.sent()).toEqual([{ number: '3,5' }]);
    await server.requests[0]!.acknowledge();
    expect(await flushed).toBe(true);
  });

  it('sends the choices of one burst of clicks together, SAVE_DEBOUNCE_MS after the last', async () => {
    const server = manualServer();
    const outbox = createAnswerOutbox(server.send);
    outbox.queue('q1', 'A');
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS - 100);
    outbox.queue('q1', 'B');
    outbox.queue('q2', 'C');
    expect(outbox.getState().status).toBe('saving');
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS - 1);
    expect(server.send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sent()).toEqual([{ q1: 'B', q2: 'C' }]);
    expect(server.requests[0]!.keepalive).toBe(false);
    await server.requests[0]!.acknowledge();
    expect(outbox.getState().status).toBe('saved');
  });

  it('sends one request at a time, so the server gets the choices in the order they were made', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    outbox.queue('q1', 'B');
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 3);
    expect(server.sent()).toEqual([{ q1: 'A' }]);
    await server.requests[0]!.acknowledge();
    expect(server.sent()).toEqual([{ q1: 'A' }, { q1: 'B' }]);
  });

  it('before a submission, flush sends the waiting choice after the request in flight and resolves once both arrived', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    // A choice 0.2 s before time-up; the timer's submission flushes at once.
    outbox.queue('q2', 'B');
    let isFlushed = false;
    const flushed = outbox.flush().then((delivered) => (isFlushed = delivered));
    await vi.advanceTimersByTimeAsync(0);
    expect(isFlushed).toBe(false);
    await server.requests[0]!.acknowledge();
    expect(server.sent()).toEqual([{ q1: 'A' }, { q2: 'B' }]);
    expect(isFlushed).toBe(false);
    await server.requests[1]!.acknowledge();
    await flushed;
    expect(isFlushed).toBe(true);
    // The debounce it replaced sends nothing more.
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
    expect(server.send).toHaveBeenCalledTimes(2);
  });

  it('for a submission, sends what waits, then hands over only what the server has not acknowledged: normally nothing', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    // Made while the first request is out, then the submission starts at once (the timer at 0:00).
    outbox.queue('q2', 'B');
    let carried: Choices | undefined;
    const forSubmission = outbox.flushForSubmission().then((choices) => (carried = choices));
    await server.requests[0]!.acknowledge();
    expect(carried).toBeUndefined();
    expect(server.sent()).toEqual([{ q1: 'A' }, { q2: 'B' }]);
    await server.requests[1]!.acknowledge();
    await forSubmission;
    // Both acknowledged: the server holds them, the submission carries none (decision 022).
    expect(carried).toEqual({});
  });

  it('for a submission, waits for a keepalive request sent beside the ordered one, and for the newer choice sent again', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    outbox.queue('q1', 'B');
    outbox.sendBeforeHiding();
    let carried: Choices | undefined;
    const forSubmission = outbox.flushForSubmission().then((choices) => (carried = choices));
    await server.requests[0]!.acknowledge();
    expect(carried).toBeUndefined();
    await server.requests[1]!.acknowledge();
    // q1 was in both: B is sent once more so it lands last; the submission waits for it.
    expect(server.sent()[2]).toEqual({ q1: 'B' });
    expect(carried).toBeUndefined();
    await server.requests[2]!.acknowledge();
    await forSubmission;
    expect(carried).toEqual({});
  });

  it('for a submission that cannot deliver first (offline), hands over the undelivered choices, newest value', async () => {
    const { server, outbox } = await outboxWithRequestOut({ q1: 'A', q2: 'B' });
    outbox.queue('q1', 'C');
    const forSubmission = outbox.flushForSubmission();
    await server.requests[0]!.fail(offline());
    // Not waiting for the retry: the submission carries them (and is retried itself).
    expect(await forSubmission).toEqual({ q1: 'C', q2: 'B' });
    expect(server.send).toHaveBeenCalledTimes(1);
  });

  it('once refused, keeps later choices as not saved (never sent) and hands them to a submission', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    await server.requests[0]!.fail(
      new ApiError('VALIDATION_FAILED', { serverMessage: 'This option is not one of the question’s options' }),
    );
    outbox.queue('q2', 'B');
    expect(outbox.getState()).toMatchObject({ status: 'refused', lost: { q1: 'A', q2: 'B' } });
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
    expect(server.send).toHaveBeenCalledTimes(1);
    expect(await outbox.flushForSubmission()).toEqual({ q1: 'A', q2: 'B' });
  });

  it('retries what could not be sent with growing waits, and stops once it arrived', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    await server.requests[0]!.fail(offline());
    expect(outbox.getState().status).toBe('retrying');
    expect(outbox.unacknowledged()).toEqual({ q1: 'A' });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0] - 1);
    expect(server.send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await server.requests[1]!.fail(new ApiError('UNEXPECTED_ANSWER', { serverMessage: 'Service unavailable' }));
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]);
    expect(server.sent()).toEqual([{ q1: 'A' }, { q1: 'A' }, { q1: 'A' }]);
    await server.requests[2]!.acknowledge();
    expect(outbox.getState().status).toBe('saved');
    expect(outbox.unacknowledged()).toEqual({});
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.at(-1)! * 2);
    expect(server.send).toHaveBeenCalledTimes(3);
  });

  it('puts a failed batch back under the choices made meanwhile: the newer choice wins', async () => {
    const { server, outbox } = await outboxWithRequestOut({ q1: 'A', q2: 'B' });
    outbox.queue('q1', 'C');
    await server.requests[0]!.fail(offline());
    expect(outbox.unacknowledged()).toEqual({ q1: 'C', q2: 'B' });
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
    expect(server.sent().at(-1)).toEqual({ q1: 'C', q2: 'B' });
  });

  it('gives up when the attempt is over (409) and says which choices were lost', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    await server.requests[0]!.fail(
      new ApiError('QUIZ_ALREADY_SUBMITTED', { serverMessage: 'Time is up: your saved answers were submitted' }),
    );
    expect(outbox.getState()).toEqual({
      status: 'over',
      message: failureText('QUIZ_ALREADY_SUBMITTED'),
      lost: { q1: 'A' },
    });
    outbox.queue('q2', 'B');
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.at(-1)!);
    expect(server.send).toHaveBeenCalledTimes(1);
    expect(await outbox.flush()).toBe(false);
  });

  it('gives up on a refusal that will not change (401: the session ended)', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    await server.requests[0]!.fail(
      new ApiError('SIGNED_OUT', { serverMessage: 'Your session has ended. Please log in again.' }),
    );
    expect(outbox.getState()).toMatchObject({ status: 'refused', lost: { q1: 'A' } });
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.at(-1)!);
    expect(server.send).toHaveBeenCalledTimes(1);
  });

  it('as the page is hidden, sends what waits at once with keepalive, and not again after the debounce', async () => {
    const server = manualServer();
    const outbox = createAnswerOutbox(server.send);
    outbox.queue('q1', 'A');
    outbox.sendBeforeHiding();
    // Already handed to fetch, with no timer or promise in between: the page may be gone next.
    expect(server.requests).toMatchObject([{ choices: { q1: 'A' }, keepalive: true }]);
    await server.requests[0]!.acknowledge();
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 3);
    expect(server.send).toHaveBeenCalledTimes(1);
    outbox.sendBeforeHiding();
    expect(server.send).toHaveBeenCalledTimes(1);
  });

  it('hidden during a request: sends beside it at once, then repeats a shared question so the newer choice lands last', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    outbox.queue('q1', 'B');
    outbox.queue('q2', 'C');
    outbox.sendBeforeHiding();
    expect(server.requests[1]).toMatchObject({ choices: { q1: 'B', q2: 'C' }, keepalive: true });
    // The later request may well arrive first.
    await server.requests[1]!.acknowledge();
    expect(server.send).toHaveBeenCalledTimes(2);
    await server.requests[0]!.acknowledge();
    expect(server.sent()[2]).toEqual({ q1: 'B' });
    await server.requests[2]!.acknowledge();
    expect(outbox.getState().status).toBe('saved');
  });

  it('settled() waits for the requests in flight, not for scheduled retries', async () => {
    const { server, outbox } = await outboxWithRequestOut();
    let isSettled = false;
    const settled = outbox.settled().then(() => (isSettled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(isSettled).toBe(false);
    await server.requests[0]!.fail(offline());
    await settled;
    expect(isSettled).toBe(true);
    expect(outbox.unacknowledged()).toEqual({ q1: 'A' });
  });

  it('after close() (the submission carried every choice) nothing more is sent', async () => {
    const server = manualServer();
    const outbox = createAnswerOutbox(server.send);
    outbox.queue('q1', 'A');
    outbox.close();
    outbox.queue('q2', 'B');
    outbox.sendBeforeHiding();
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
    expect(server.send).not.toHaveBeenCalled();
    expect(outbox.getState().status).toBe('saved');
  });
});
