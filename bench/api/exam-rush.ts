import { Pool } from 'undici';
import { summariseLatencies, type LatencySummary } from './load.ts';
import { seededRandom } from '#server/testing/seeded-random';

/**
 * Exam rush: N logged-in students take a quiz at the same time, the way the client does it
 * (take-quiz-page, use-answer-saver), inside one window (60 s):
 *
 *   open   GET  /api/quiz/:id              the quiz page loads (intro, no questions yet)
 *   start  POST /api/quiz/:id/start        after reading the intro; the server's timer starts
 *   save   PUT  /api/quiz/:id/answers      one per question, 400 ms after the click (the
 *                                          client's debounce), not awaited by the student
 *   submit POST /api/student/update-student  on the last question; every choice again
 *
 * Pacing: the bell rings at 0 s; each student opens the quiz within the first 15 % of the
 * window, reads the intro for 0.5-2 s, then answers the 20 questions at an even pace of
 * their own (±30 % jitter per question) so as to submit between 75 % and 92 % of the window.
 * That is open-loop: a slow answer does not slow the next click, and each latency runs
 * from the moment the request was due, so waiting for a connection counts too.
 */

export type RushStudent = { token: string; quizId: string };

export type EndpointFigures = LatencySummary & { errors: number };

export type RushFigures = {
  students: number;
  windowSeconds: number;
  /** From the bell to the last answer of the last submit. */
  elapsedSeconds: number;
  isWithinWindow: boolean;
  submitted: number;
  requests: number;
  /** Requests per second over the elapsed time, and in the busiest second. */
  rps: number;
  peakRps: number;
  latency: LatencySummary;
  endpoints: Record<'open' | 'start' | 'save' | 'submit', EndpointFigures>;
  /** Non-2xx answers, network failures and wrong results (a submit that did not score our choices). */
  errors: number;
  errorSamples: string[];
  connections: number;
};

export type Endpoint = keyof RushFigures['endpoints'];
export const RUSH_ENDPOINTS: Endpoint[] = ['open', 'start', 'save', 'submit'];
const SAVE_DEBOUNCE_MS = 400;

type StartedQuiz = { data: { quiz: { questions: { _id: string; options: { _id: string }[] }[] } } };
type SubmittedQuiz = {
  data: {
    attempt: { status: string; score?: number } | null;
    quiz: {
      questions: { _id: string; options?: { _id: string; correct?: boolean }[]; response?: unknown }[];
    };
  };
};

const sleepUntil = (moment: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, moment - performance.now())));

export async function runExamRush(options: {
  baseUrl: string;
  students: RushStudent[];
  windowSeconds: number;
  connections: number;
  seed?: number;
}): Promise<RushFigures> {
  const random = seededRandom(options.seed ?? 8);
  const windowMs = options.windowSeconds * 1000;
  const pool = new Pool(options.baseUrl, {
    connections: options.connections,
    pipelining: 1,
    keepAliveTimeout: 120_000,
  });
  const samples: Record<Endpoint, number[]> = { open: [], start: [], save: [], submit: [] };
  const errorCounts: Record<Endpoint, number> = { open: 0, start: 0, save: 0, submit: 0 };
  const errorSamples: string[] = [];
  const completedPerSecond: number[] = [];
  let lastAnswer = 0;
  let submitted = 0;
  let checkFailures = 0;
  const bell = performance.now() + 500;

  const noteError = (text: string) => {
    if (errorSamples.length < 8) errorSamples.push(text);
  };

  /** One request, timed from when it was due; resolves with the parsed body, or undefined on failure. */
  async function call<T>(
    endpoint: Endpoint,
    token: string,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
  ): Promise<T | undefined> {
    const due = performance.now();
    try {
      const response = await pool.request({
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      const done = performance.now();
      samples[endpoint].push(done - due);
      const second = Math.floor((done - bell) / 1000);
      if (second >= 0) completedPerSecond[second] = (completedPerSecond[second] ?? 0) + 1;
      lastAnswer = Math.max(lastAnswer, done);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        errorCounts[endpoint] += 1;
        noteError(`${endpoint} ${response.statusCode}: ${text.slice(0, 200)}`);
        return undefined;
      }
      return JSON.parse(text) as T;
    } catch (error) {
      samples[endpoint].push(performance.now() - due);
      errorCounts[endpoint] += 1;
      noteError(`${endpoint}: ${(error as Error).message}`);
      return undefined;
    }
  }

  async function takeQuiz(student: RushStudent, plan: { arrival: number; intro: number; finish: number }) {
    const quizPath = `/api/quiz/${student.quizId}`;
    await sleepUntil(bell + plan.arrival);
    if (!(await call('open', student.token, 'GET', quizPath))) return;
    await sleepUntil(performance.now() + plan.intro);
    const started = await call<StartedQuiz>('start', student.token, 'POST', `${quizPath}/start`, {});
    if (!started) return;
    const questions = started.data.quiz.questions;
    const from = performance.now();
    const step = Math.max(300, (bell + plan.finish - from) / questions.length);
    const choices: Record<string, string> = {};
    const saves: Promise<unknown>[] = [];
    for (const [index, question] of questions.entries()) {
      await sleepUntil(from + step * (index + 0.5 + random.between(-0.3, 0.3)));
      const option = random.pick(question.options)._id;
      choices[question._id] = option;
      saves.push(
        sleepUntil(performance.now() + SAVE_DEBOUNCE_MS).then(() =>
          call('save', student.token, 'PUT', `${quizPath}/answers`, { answers: { [question._id]: option } }),
        ),
      );
    }
    // The student reads their last answer again, then presses Submit: the client sends what
    // is still waiting first, then every choice. Saves in flight are awaited too, so none lands
    // after the submit (the client would take that 409 quietly; here it would count as an error).
    await sleepUntil(Math.max(performance.now() + 500, from + step * questions.length));
    await Promise.all(saves);
    const result = await call<SubmittedQuiz>('submit', student.token, 'POST', '/api/student/update-student', {
      quiz: {
        _id: student.quizId,
        questions: questions.map((question) => ({ _id: question._id, selectedOption: choices[question._id] })),
      },
    });
    if (!result) return;
    const review = result.data.quiz.questions;
    const expected = review.filter(
      (question) => question.options?.find((option) => option.correct)?._id === choices[question._id],
    ).length;
    const isRight =
      result.data.attempt?.status === 'submitted' &&
      result.data.attempt.score === expected &&
      review.length === questions.length &&
      review.every((question) => question.response === choices[question._id]);
    if (isRight) submitted += 1;
    else {
      checkFailures += 1;
      noteError(`submit: the result does not match the choices (${JSON.stringify(result.data.attempt)})`);
    }
  }

  const plans = options.students.map(() => ({
    arrival: random.between(0, 0.15) * windowMs,
    intro: random.between(500, 2000),
    finish: random.between(0.75, 0.92) * windowMs,
  }));
  await Promise.all(options.students.map((student, index) => takeQuiz(student, plans[index]!)));
  await pool.close();

  const all = RUSH_ENDPOINTS.flatMap((endpoint) => samples[endpoint]);
  const elapsedSeconds = (lastAnswer - bell) / 1000;
  const endpointErrors = RUSH_ENDPOINTS.reduce((total, endpoint) => total + errorCounts[endpoint], 0);
  return {
    students: options.students.length,
    windowSeconds: options.windowSeconds,
    elapsedSeconds: Math.round(elapsedSeconds * 100) / 100,
    isWithinWindow: elapsedSeconds <= options.windowSeconds && submitted === options.students.length,
    submitted,
    requests: all.length,
    rps: Math.round((all.length / elapsedSeconds) * 10) / 10,
    peakRps: Math.max(0, ...completedPerSecond.map((count) => count ?? 0)),
    latency: summariseLatencies(all),
    endpoints: Object.fromEntries(
      RUSH_ENDPOINTS.map((endpoint) => [
        endpoint,
        { ...summariseLatencies(samples[endpoint]), errors: errorCounts[endpoint] },
      ]),
    ) as RushFigures['endpoints'],
    errors: endpointErrors + checkFailures,
    errorSamples,
    connections: options.connections,
  };
}
