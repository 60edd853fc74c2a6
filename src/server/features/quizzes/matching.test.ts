import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerValue, TypedQuestionInput } from '#shared/question-types';
import type { QuizQuestion, ReviewAnswers, TeacherQuizDetail } from '#shared/quizzes';
import { quizAttempts } from '../../db/schema.ts';
import { quizFor, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { editBodyOf, OPAQUE_ID } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { refreshClosesAt } from './accommodations.ts';

/**
 * Matching questions and description items over real HTTP (issue 30 point 4, decision 045):
 * saved, resumed, submitted and scored as Moodle scores a match question (each prompt an equal
 * share); no pairing reaches a student before the review options show the key; a changed
 * pairing regrades; a description is shown, takes no answer and counts in no total.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(async () => {
  await t.close();
});

type Actor = { token: string; profile: { _id: string } };

const MATCHING: TypedQuestionInput = {
  type: 'matching',
  question_text: 'Match each organ to what it does',
  points: 3,
  pairs: [
    { prompt: 'heart', match: 'pumps blood' },
    { prompt: 'lungs', match: 'exchange gases' },
    { prompt: 'kidneys', match: 'filter blood' },
    { prompt: '', match: 'digest food' },
  ],
};
const QUESTIONS: TypedQuestionInput[] = [
  { type: 'true-false', question_text: 'Before: the heart is a muscle.', points: 1, correct: true },
  { type: 'description', question_text: 'The next questions are about organs.', points: 0 },
  MATCHING,
  { type: 'true-false', question_text: 'After: lungs filter blood.', points: 1, correct: false },
];
/** What would give the pairing away: a prompt's match, or what a prompt earned. */
const PAIRING = /"(match|earnedPoints|correct)"/;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, actor: Actor, payload?: unknown) =>
  t.call({
    method,
    url,
    headers: bearer(actor.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function startedQuiz(reviewAnswers: ReviewAnswers = 'after-deadline') {
  const teacher = await signUpTeacher(t);
  const student = await signUpStudent(t);
  const payload = await quizFor(t, teacher, { reviewAnswers });
  payload.quiz.questions = QUESTIONS;
  const created = await call('POST', '/api/teacher/add-quiz', teacher, payload);
  expect(created.status, created.raw).toBe(201);
  const quizId = created.body.data._id as string;
  const started = await call('POST', `/api/quiz/${quizId}/start`, student);
  expect(started.status, started.raw).toBe(200);
  expect(started.raw).not.toMatch(PAIRING);
  const questions = started.body.data.quiz.questions as QuizQuestion[];
  const matching = questions.find((question) => question.type === 'matching')!;
  /** The student's answer: prompt text → choice text. */
  const answerOf = (pairs: Record<string, string>): AnswerValue =>
    Object.fromEntries(
      Object.entries(pairs).map(([prompt, choice]) => [
        matching.prompts!.find((item) => item.text === prompt)!._id,
        matching.choices!.find((item) => item.text === choice)!._id,
      ]),
    );
  return { teacher, student, quizId, questions, matching, answerOf };
}

const submit = (student: Actor, quizId: string, questions: { _id: string; response: AnswerValue }[]) =>
  call('POST', '/api/student/update-student', student, { quiz: { _id: quizId, questions } });

async function closeQuiz(quizId: string) {
  await t.database.db.execute(sql`update quizzes set deadline = now() - interval '1 day' where id = ${quizId}::uuid`);
  await refreshClosesAt(t.database.db, quizId);
}

describe('matching questions and descriptions', () => {
  it('count only real questions, and give a student the prompts and shuffled matches without the pairing', async () => {
    const { teacher, quizId, questions, matching } = await startedQuiz();
    const detail = (await call('GET', `/api/quiz/${quizId}`, teacher)).body.data as TeacherQuizDetail;
    expect(detail).toMatchObject({ questionCount: 3, totalPoints: 5 });
    const keyed = detail.quiz.questions.find((question) => question.type === 'matching')!;
    const choiceText = (id: string | undefined) => keyed.choices!.find((choice) => choice._id === id)?.text;
    expect(keyed.prompts!.map((prompt) => [prompt.text, choiceText(prompt.match)])).toEqual([
      ['heart', 'pumps blood'],
      ['lungs', 'exchange gases'],
      ['kidneys', 'filter blood'],
    ]);

    // The student: prompts in order, every match (the extra one too) with ids that say nothing.
    expect(matching.prompts!.map((prompt) => Object.keys(prompt).sort())).toEqual([
      ['_id', 'text'],
      ['_id', 'text'],
      ['_id', 'text'],
    ]);
    expect(matching.prompts!.map((prompt) => prompt.text)).toEqual(['heart', 'lungs', 'kidneys']);
    expect(matching.choices!.map((choice) => choice.text).sort()).toEqual(
      ['digest food', 'exchange gases', 'filter blood', 'pumps blood'].sort(),
    );
    for (const item of [...matching.prompts!, ...matching.choices!]) expect(item._id).toMatch(OPAQUE_ID);
    // The attempt's layout shuffles the matches (its own order, kept for resumes).
    const [row] = await t.database.db
      .select({ layout: quizAttempts.layout })
      .from(quizAttempts)
      .where(eq(quizAttempts.quizId, quizId));
    const laidOut = row!.layout.find((entry) => entry.questionId === matching._id)!;
    expect(laidOut.options).toEqual(matching.choices!.map((choice) => choice._id));
    // The description keeps its place before the questions that followed it, whatever the shuffle.
    expect(questions.map((question) => question.question_text.split(':')[0])).toEqual(
      expect.arrayContaining(['Before', 'After']),
    );
    const at = questions.findIndex((question) => question.type === 'description');
    expect(questions[0]!.question_text).toMatch(/^Before/);
    expect(at).toBe(1);
    expect(questions[at]).toMatchObject({ points: 0, response: null });
  });

  it('saves and resumes partial matches, refuses wrong shapes and answers to a description', async () => {
    const { student, quizId, questions, matching, answerOf } = await startedQuiz();
    const description = questions.find((question) => question.type === 'description')!;
    const save = (answers: Record<string, AnswerValue | null>) =>
      call('PUT', `/api/quiz/${quizId}/answers`, student, { answers });
    const choice = matching.choices![0]!._id;
    const prompt = matching.prompts![0]!._id;
    const refusals: [string, AnswerValue][] = [
      [matching._id, choice],
      [matching._id, [choice]],
      [matching._id, { [prompt]: prompt }],
      [matching._id, { nobody: choice }],
      [description._id, 'read it'],
      [description._id, true],
    ];
    for (const [id, value] of refusals) {
      const refused = await save({ [id]: value });
      expect([refused.status, refused.body.code], JSON.stringify(value)).toEqual([400, 'VALIDATION_FAILED']);
      expect(refused.body.message).toContain(`answers.${id}`);
    }
    const partial = answerOf({ heart: 'pumps blood', lungs: 'digest food' });
    expect((await save({ [matching._id]: partial })).status).toBe(200);
    const reloaded = (await call('GET', `/api/quiz/${quizId}`, student)).body.data.quiz.questions as QuizQuestion[];
    expect(reloaded.find((question) => question._id === matching._id)!.response).toEqual(partial);
    // The student's own pairing comes back; the key's does not.
    expect(JSON.stringify(reloaded)).not.toMatch(PAIRING);
    // An empty matching clears the answer.
    expect((await save({ [matching._id]: {} })).status).toBe(200);
    const cleared = (await call('GET', `/api/quiz/${quizId}`, student)).body.data.quiz.questions as QuizQuestion[];
    expect(cleared.find((question) => question._id === matching._id)!.response).toBeNull();
  });

  it('scores each prompt matched right as an equal share, and shows the pairing only once answers may show', async () => {
    const { student, quizId, matching, answerOf } = await startedQuiz('after-deadline');
    const submitted = await submit(student, quizId, [
      // heart right, lungs wrong (the extra match), kidneys right: 2 of 3 prompts of 3 points.
      {
        _id: matching._id,
        response: answerOf({ heart: 'pumps blood', lungs: 'digest food', kidneys: 'filter blood' }),
      },
    ]);
    expect(submitted.status, submitted.raw).toBe(200);
    // The score shows right after submitting; the pairing and what each question earned wait.
    expect(submitted.body.data.attempt).toMatchObject({ score: 2, accuracy: '40' });
    expect(submitted.raw).not.toMatch(PAIRING);
    const student_view = await call('GET', `/api/quiz/${quizId}`, student);
    expect(student_view.raw).not.toMatch(PAIRING);

    await closeQuiz(quizId);
    const review = (await call('GET', `/api/quiz/${quizId}`, student)).body.data.quiz.questions as QuizQuestion[];
    const reviewed = review.find((question) => question._id === matching._id)!;
    expect(reviewed.earnedPoints).toBe(2);
    expect(reviewed.prompts!.every((prompt) => typeof prompt.match === 'string')).toBe(true);
  });

  it('keeps the pairing from a student for good with answers never shown', async () => {
    const { student, quizId, matching, answerOf } = await startedQuiz('never');
    const submitted = await submit(student, quizId, [
      { _id: matching._id, response: answerOf({ heart: 'pumps blood' }) },
    ]);
    expect(submitted.status, submitted.raw).toBe(200);
    await closeQuiz(quizId);
    expect((await call('GET', `/api/quiz/${quizId}`, student)).raw).not.toMatch(PAIRING);
  });

  it('regrades when the pairing changes, keeps ids through rewording, and refuses new pairs once started', async () => {
    const { teacher, student, quizId, matching, answerOf } = await startedQuiz();
    const submitted = await submit(student, quizId, [
      {
        _id: matching._id,
        response: answerOf({ heart: 'pumps blood', lungs: 'filter blood', kidneys: 'exchange gases' }),
      },
    ]);
    expect(submitted.body.data.attempt).toMatchObject({ score: 1 });
    const detail = async () => (await call('GET', `/api/quiz/${quizId}`, teacher)).body.data as TeacherQuizDetail;
    const body = editBodyOf(await detail());
    const at = body.quiz.questions.findIndex((question) => question.type === 'matching');
    const pairsOf = (question: TypedQuestionInput) => (question.type === 'matching' ? question.pairs : []);
    const withPairs = (from: typeof body, change: (pair: ReturnType<typeof pairsOf>[number]) => object) => ({
      ...from,
      quiz: {
        ...from.quiz,
        questions: from.quiz.questions.map((question, index) =>
          index === at
            ? { ...question, pairs: pairsOf(question).map((pair) => ({ ...pair, ...change(pair) })) }
            : question,
        ),
      },
    });

    // The teacher had lungs and kidneys the wrong way round: swapping them regrades the attempt.
    const swap: Record<string, string> = { 'exchange gases': 'filter blood', 'filter blood': 'exchange gases' };
    const swapped = withPairs(body, (pair) => {
      const other = pairsOf(body.quiz.questions[at]!).find((item) => item.match === swap[pair.match]);
      return other && pair.prompt !== '' ? { match: other.match, matchId: other.matchId } : {};
    });
    const regraded = await call('PUT', `/api/quizzes/${quizId}`, teacher, swapped);
    expect(regraded.status, regraded.raw).toBe(200);
    expect(regraded.body.data.regrade).toEqual({ attemptsChanged: 1 });
    expect((await detail()).attempts[0]).toMatchObject({ score: 3 });

    // Rewording a match keeps its id: no regrade, the answer still points at it.
    const current = editBodyOf(await detail());
    const reworded = withPairs(current, (pair) => (pair.match === 'digest food' ? { match: 'digests food' } : {}));
    const rewordedResponse = await call('PUT', `/api/quizzes/${quizId}`, teacher, reworded);
    expect(rewordedResponse.status, rewordedResponse.raw).toBe(200);
    expect(rewordedResponse.body.data.regrade).toBeNull();

    // A new pair (a new match to choose) would change what attempts were laid out with.
    const grown = editBodyOf(await detail());
    grown.quiz.questions[at] = {
      ...grown.quiz.questions[at]!,
      pairs: [...pairsOf(grown.quiz.questions[at]!), { prompt: 'liver', match: 'stores glycogen' }],
    } as TypedQuestionInput;
    const refused = await call('PUT', `/api/quizzes/${quizId}`, teacher, grown);
    expect([refused.status, refused.body.code]).toEqual([409, 'QUIZ_HAS_ATTEMPTS']);
  });

  it('refuses a quiz of descriptions alone', async () => {
    const teacher = await signUpTeacher(t);
    const payload = await quizFor(t, teacher);
    payload.quiz.questions = [{ type: 'description', question_text: 'Nothing to answer here.' }];
    const refused = await call('POST', '/api/teacher/add-quiz', teacher, payload);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toContainEqual(expect.objectContaining({ code: 'NO_QUESTIONS' }));
  });
});
