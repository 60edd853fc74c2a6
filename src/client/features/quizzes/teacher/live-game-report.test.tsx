import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { QUIZ_BACKGROUNDS } from '#shared/quizzes';
import { openApp } from '../../../testing/open-app.tsx';
import { finishedGamesOf, liveGameReportOf, playLiveGame } from '../../../testing/live-game-actors.ts';
import {
  addQuiz,
  classRecordTaughtBy,
  signInAs,
  signUpStudent,
  signUpTeacher,
} from '../../../testing/server-actors.ts';

/**
 * A finished live game on its quiz's analytics (issue 34 point 6), on the real server: a game
 * played over the game's socket by a teacher and two students, then the list, the report (a
 * question's distribution, a student's score), its CSV and the leaderboard choice.
 */
async function finishedGame() {
  const teacher = await signUpTeacher();
  const klass = await classRecordTaughtBy(teacher);
  const ada = await signUpStudent({ class: klass.name, teacher, name: 'Ada Lovelace' });
  const ben = await signUpStudent({ class: klass.name, teacher, name: 'Ben Okri' });
  const quiz = await addQuiz(teacher, {
    class: klass.name,
    quiz: {
      background: QUIZ_BACKGROUNDS[0],
      questions: [
        { question_text: 'What is 2 + 2?', options: ['4', '3', '5'], answer: '4' },
        { type: 'true-false', question_text: 'Is 7 a prime number?', points: 1, correct: true },
        { question_text: 'What is the capital of France?', options: ['Paris', 'Rome', 'Madrid'], answer: 'Paris' },
      ],
    },
  });
  // Ada answers both questions right; Ben picks 3, then lets the second go. The third is never played.
  const game = await playLiveGame({
    teacher,
    players: [ada, ben],
    quizId: quiz._id,
    classId: klass.id,
    questionsPlayed: 2,
    answer: ({ question }, player) => {
      if (question.type === 'true-false') return player === 0 ? true : null;
      const text = player === 0 ? '4' : '3';
      return question.options!.find((option) => option.text === text)!._id;
    },
  });
  const report = await liveGameReportOf(teacher, quiz._id, game._id);
  signInAs(teacher, 'teacher');
  return { teacher, klass, ada, ben, quiz, game, report };
}

const scoreOf = (report: Awaited<ReturnType<typeof liveGameReportOf>>, name: string) =>
  report.players.find((player) => player.student.name === name)!;

describe('a quiz’s finished live games', () => {
  it('lists a finished game on the analytics page, and opens its report', async () => {
    const { teacher, quiz, klass, game } = await finishedGame();
    const { user } = await openApp(`/dashboard/teacher/quiz-analytics/${quiz._id}`);
    await user.click(await screen.findByRole('button', { name: 'Show finished live games' }));
    const row = (await screen.findByRole('rowheader', { name: klass.name })).closest('tr')!;
    expect(within(row).getByText('2 of 3')).toBeInTheDocument();
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([expect.any(String), '2', '2 of 3', expect.any(String)]);
    expect(row.querySelector('time')).toHaveAttribute(
      'dateTime',
      (await finishedGamesOf(teacher, quiz._id))[0]!.endedAt,
    );
    expect((await finishedGamesOf(teacher, quiz._id))[0]!._id).toBe(game._id);

    await user.click(within(row).getByRole('link', { name: new RegExp(`^Report: ${klass.name}`) }));
    expect(
      await screen.findByRole('heading', { level: 1, name: new RegExp(`Live game: .${klass.name}.`) }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Quiz analytics' })).toHaveAttribute(
      'href',
      `/dashboard/teacher/quiz-analytics/${quiz._id}?live=1`,
    );
  });

  it('reports each question’s distribution and each student’s score and answers', async () => {
    const { quiz, game, report } = await finishedGame();
    await openApp(`/dashboard/teacher/quiz-analytics/${quiz._id}/live/${game._id}`);

    const [first, second, third] = await screen.findAllByTestId('live-question');
    expect(first).toHaveTextContent('Q1. What is 2 + 2?');
    expect(first).toHaveTextContent('Correct answer: 4');
    const answers = within(first!).getByRole('table', { name: 'Answers to question 1, of 2 players' });
    const counts = Object.fromEntries(
      within(answers)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [within(row).getByRole('rowheader').textContent, within(row).getByRole('cell').textContent]),
    );
    expect(counts).toEqual({ '4(correct)': '1 (50%)', '3': '1 (50%)', '5': '0 (0%)' });
    expect(within(first!).getByText('Right answers:').nextSibling).toHaveTextContent('1');
    expect(within(first!).getByText('Wrong answers:').nextSibling).toHaveTextContent('1');
    expect(within(second!).getByText('No answer:').nextSibling).toHaveTextContent('1');
    expect(third).toHaveTextContent('Not played: the game ended before it');
    expect(within(third!).queryByRole('table')).not.toBeInTheDocument();

    const ada = scoreOf(report, 'Ada Lovelace');
    expect(ada.score).toBeGreaterThan(1000);
    const adaRow = (await screen.findByRole('rowheader', { name: /Ada Lovelace/ })).closest('tr')!;
    const [rank, score, q1, q2] = within(adaRow).getAllByRole('cell');
    expect(rank).toHaveTextContent('1');
    expect(score).toHaveTextContent(ada.score.toLocaleString('en'));
    expect(q1).toHaveAttribute('data-outcome', 'right');
    expect(q1).toHaveTextContent(`4${ada.answers[0]!.points.toLocaleString('en')} points`);
    expect(q2).toHaveTextContent('True');
    const benRow = screen.getByRole('rowheader', { name: /Ben Okri/ }).closest('tr')!;
    const benCells = within(benRow).getAllByRole('cell');
    expect(benCells.slice(0, 2).map((cell) => cell.textContent)).toEqual(['2', '0']);
    expect(benCells[2]).toHaveAttribute('data-outcome', 'wrong');
    expect(benCells[3]).toHaveAttribute('data-outcome', 'none');
  });

  it('marks the typed answers worth all of the points as correct, in words', async () => {
    const teacher = await signUpTeacher();
    const klass = await classRecordTaughtBy(teacher);
    const players = [];
    for (const name of ['Ada Lovelace', 'Ben Okri', 'Cy Twombly']) {
      players.push(await signUpStudent({ class: klass.name, teacher, name }));
    }
    const quiz = await addQuiz(teacher, {
      class: klass.name,
      quiz: {
        background: QUIZ_BACKGROUNDS[0],
        questions: [
          { type: 'short-text', question_text: 'The capital of France?', points: 1, accepted: ['Paris'] },
          { type: 'numeric', question_text: 'Half of 7?', points: 1, value: 3.5, tolerance: 0.1 },
        ],
      },
    });
    const typed = [
      ['Paris', 'Lyon', 'PARIS'],
      ['3.5', '4', '3.55'],
    ];
    const game = await playLiveGame({
      teacher,
      players,
      quizId: quiz._id,
      classId: klass.id,
      answer: ({ index }, player) => typed[index]![player]!,
    });
    signInAs(teacher, 'teacher');
    await openApp(`/dashboard/teacher/quiz-analytics/${quiz._id}/live/${game._id}`);
    const [text, number] = await screen.findAllByTestId('live-question');
    const rowsOf = (question: HTMLElement, table: string) =>
      within(within(question).getByRole('table', { name: table }))
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getByRole('rowheader').textContent);
    // Typed answers as the quiz compares them: "Paris" and "PARIS" are one answer, the right one.
    expect(rowsOf(text!, 'Answers to question 1, of 3 players').sort()).toEqual(['lyon', 'paris(correct)']);
    expect(rowsOf(number!, 'Answers to question 2, of 3 players').sort()).toEqual([
      '3.5(correct)',
      '3.55(correct)',
      '4',
    ]);
  });

  it('downloads the report as CSV: a row per player, best first, with each answer and its points', async () => {
    const { quiz, game, report, ada, ben } = await finishedGame();
    const { user } = await openApp(`/dashboard/teacher/quiz-analytics/${quiz._id}/live/${game._id}`);
    await screen.findAllByTestId('live-question');
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:live-game')),
      revokeObjectURL: vi.fn(),
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    const link = clicked.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toMatch(/-live-game-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    const adaScore = scoreOf(report, 'Ada Lovelace');
    const [q1, q2] = adaScore.answers;
    expect(lines).toEqual([
      'Name,Roll number,Score,Rank,Q1: What is 2 + 2?,Q1 points,Q2: Is 7 a prime number?,Q2 points',
      `Ada Lovelace,${ada.registration.rollNumber},${adaScore.score},1,4,${q1!.points},True,${q2!.points}`,
      `Ben Okri,${ben.registration.rollNumber},0,2,3,0,,`,
      '',
    ]);
    clicked.mockRestore();
  });

  it('records whether the game counts toward the class leaderboard: off by default, then on, kept on reload', async () => {
    const { teacher, quiz, game } = await finishedGame();
    const path = `/dashboard/teacher/quiz-analytics/${quiz._id}/live/${game._id}`;
    const { user, unmount } = await openApp(path);
    const toggle = await screen.findByRole('switch', { name: 'Counts toward the class leaderboard' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect((await finishedGamesOf(teacher, quiz._id))[0]!.countsTowardLeaderboard).toBe(false);

    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect((await finishedGamesOf(teacher, quiz._id))[0]!.countsTowardLeaderboard).toBe(true);

    unmount();
    await openApp(path);
    const reloaded = await screen.findByRole('switch', { name: 'Counts toward the class leaderboard' });
    expect(reloaded).toHaveAttribute('aria-checked', 'true');
    await user.click(reloaded);
    await waitFor(() => expect(reloaded).toHaveAttribute('aria-checked', 'false'));
    await waitFor(async () =>
      expect((await finishedGamesOf(teacher, quiz._id))[0]!.countsTowardLeaderboard).toBe(false),
    );
  });
});
