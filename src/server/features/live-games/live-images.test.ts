import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDelivery, LiveGameSummary, LiveServerMessage } from '#shared/live-games';
import type { TypedQuestionInput } from '#shared/question-types';
import { buildNewQuiz } from '../../testing/factories.ts';
import { multipartBody, SAMPLE_FILES } from '../../testing/multipart.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { liveGameClass, messagesOf, SINGLE_CHOICE, type Player } from './live-game-testing.ts';
import type { PlayOutcome } from './play.ts';

/**
 * A live game plays a question with an image and a formula (issue 34, decision 066): the image
 * reaches the players only once its question opens, in the one message the room shares, signed
 * for the game; its address serves the uploaded bytes; the formula's text arrives unchanged.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PNG = SAMPLE_FILES.png();
const FORMULA = 'What is \\( \\frac{1}{2} + \\frac{1}{4} \\)?';
const ALT = 'A square, half of it and a quarter of it shaded';

/** What the players' sockets receive of some deliveries: everyone's and each player's own. */
const toPlayers = (deliveries: readonly LiveDelivery[]) =>
  deliveries.filter((delivery) => delivery.to !== 'hosts').map((delivery) => delivery.message);

function expectDone<Outcome extends PlayOutcome>(outcome: Outcome): Outcome {
  expect(outcome.refused, JSON.stringify(outcome)).toBeUndefined();
  return outcome;
}

describe('a live game of a question with an image and a formula', () => {
  it('shows both to the players when the question opens, and the image address serves the PNG', async () => {
    const { teacher, klass, players, play, host } = await liveGameClass(t, { students: 2, questions: [SINGLE_CHOICE] });
    const [ada, ben] = players as [Player, Player];

    // The teacher uploads the image, then writes a quiz whose question shows it.
    const { payload, headers } = multipartBody({}, [{ name: 'figure.png', content: PNG, contentType: 'image/png' }]);
    const uploaded = await t.call({
      method: 'POST',
      url: '/api/quizzes/images',
      headers: { ...headers, ...bearer(teacher.token) },
      payload,
    });
    expect(uploaded.status, uploaded.raw).toBe(201);
    const fileKey = uploaded.body.data.fileKey as string;
    const question: TypedQuestionInput = {
      type: 'single',
      question_text: FORMULA,
      points: 1,
      image: { fileKey, alt: ALT },
      options: [
        { text: '\\( \\frac{3}{4} \\)', correct: true },
        { text: '\\( \\frac{2}{6} \\)', correct: false },
      ],
    };
    const created = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: bearer(teacher.token),
      payload: buildNewQuiz({
        classId: klass.id,
        quiz: { background: buildNewQuiz().quiz.background, questions: [question] },
      }),
    });
    expect(created.status, created.raw).toBe(201);
    const quizId = (created.body as { data: { _id: string } }).data._id;
    const made = await t.call({
      method: 'POST',
      url: '/api/live-games',
      headers: bearer(teacher.token),
      payload: { quizId, classId: klass.id, questionSeconds: 20 },
    });
    expect(made.status, made.raw).toBe(201);
    const game = (made.body as { data: LiveGameSummary }).data;
    expect(game).toMatchObject({ state: 'lobby', questionCount: 1 });

    // In the lobby, nothing a player receives names the image.
    const lobby: LiveServerMessage[] = [];
    for (const player of [ada, ben]) {
      const joined = expectDone(await play.joinAsPlayer(player, game._id));
      lobby.push(joined.welcome!, ...toPlayers(joined.deliveries));
    }
    expect(lobby.length).toBeGreaterThan(0);
    for (const message of lobby) {
      expect(JSON.stringify(message), `${message.type} names the image`).not.toContain(fileKey);
    }

    // The question opens: one message to the room, with the image (signed for the game) and the formula.
    const started = expectDone(await play.host(host, game._id, { type: 'start' }));
    const opened = messagesOf(started.deliveries, 'question-opened');
    expect(opened).toHaveLength(1);
    expect(started.deliveries.find((delivery) => delivery.message.type === 'question-opened')!.to).toBe('everyone');
    const shown = opened[0]!.question;
    expect(toPlayers(started.deliveries)).toContain(opened[0]);
    expect(shown.question_text).toBe(FORMULA);
    expect(shown.options!.map((option) => option.text).sort()).toEqual([
      '\\( \\frac{2}{6} \\)',
      '\\( \\frac{3}{4} \\)',
    ]);
    expect(shown.image).toEqual({ url: expect.stringContaining(`/api/quizzes/images/${fileKey}?access=`), alt: ALT });
    const url = shown.image!.url;
    expect(new URL(url, 'http://localhost').searchParams.get('access')!.split('.')[0]).toBe(game._id);

    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    // A player coming back mid-question is welcomed with the same question, image and formula.
    const rejoined = expectDone(await play.joinAsPlayer(ben, game._id));
    expect(JSON.stringify(rejoined.welcome)).toContain(fileKey);
    expect(JSON.stringify(rejoined.welcome)).toContain(JSON.stringify(FORMULA).slice(1, -1));

    // The host ends the game. Decision 066 ties the signature to the game, not to its state: the
    // address the players were given still serves until it expires.
    const ended = expectDone(await play.host(host, game._id, { type: 'end' }));
    expect(messagesOf(ended.deliveries, 'ended')).toHaveLength(1);
    const afterEnd = await t.app.inject({ method: 'GET', url });
    expect(afterEnd.statusCode).toBe(200);
    expect(afterEnd.rawPayload.equals(PNG)).toBe(true);
  });
});
