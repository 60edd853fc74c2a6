import type { LiveGameReport } from './live-games.ts';
import type { AnswerValue } from './question-types.ts';
import type { QuizQuestion } from './quizzes.ts';
import { toCsv } from './roster-import.ts';

/**
 * A finished live game's report as CSV (decision 066), built where it is downloaded: the headers
 * are for a person, in the reader's language (decision 055's CSV headers), so the page gives
 * them, and the way an answer reads (its option texts, True or False) with them. The cells are
 * the same in every language: points and ranks as digits. One row per player, best first; per
 * question played, the answer and its points.
 */

export type LiveReportCsvWords = {
  name: string;
  rollNumber: string;
  score: string;
  rank: string;
  /** The rank cell of a player the host removed. */
  removed: string;
  /** The answer column of question `number` (1-based) whose text is `text`. */
  answer: (number: number, text: string) => string;
  points: (number: number) => string;
  answerText: (question: QuizQuestion, value: AnswerValue) => string;
};

export function liveGameReportCsv(report: LiveGameReport, words: LiveReportCsvWords): string {
  const played = report.questions.filter((entry) => entry.played);
  const header = [
    words.name,
    words.rollNumber,
    words.score,
    words.rank,
    ...played.flatMap((entry, index) => [
      words.answer(index + 1, entry.question.question_text),
      words.points(index + 1),
    ]),
  ];
  const rows = report.players.map((player) => {
    const answers = new Map(player.answers.map((answer) => [answer.questionId, answer]));
    return [
      player.student.name,
      player.student.rollNumber,
      String(player.score),
      player.rank === null ? words.removed : String(player.rank),
      ...played.flatMap(({ question }) => {
        const answer = answers.get(question._id);
        return answer ? [words.answerText(question, answer.value), String(answer.points)] : ['', ''];
      }),
    ];
  });
  return toCsv(header, rows);
}
