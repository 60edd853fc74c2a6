import type {
  FinishedLiveGame,
  LiveGameSummary,
  OpenedQuestion,
  RankedPlayer,
  StudentLiveGame,
} from '#shared/live-games';
import type { StoredQuestion } from '#shared/question-types';
import type { LiveGameRow } from '../../db/schema.ts';
import { presentQuestion, type ImageSigner } from '../quizzes/presenters.ts';
import type { GameSummaryRow } from './records.ts';

/**
 * What of a live game leaves the server (decision 066). A question leaves without its key while
 * it is open (presentQuestion with showsKey false, the student presenters' rule) and with it once
 * it has closed; a summary never carries a question.
 */

export function presentGameSummary(row: GameSummaryRow): LiveGameSummary {
  const { game } = row;
  return {
    _id: game.id,
    pin: game.pin,
    state: game.state,
    quiz: { _id: game.quizId, title: row.quizTitle },
    class: { _id: game.classId, name: row.className },
    createdBy: game.hostTeacherId && row.hostName !== null ? { _id: game.hostTeacherId, name: row.hostName } : null,
    questionCount: game.questionCount,
    skippedCount: game.skipped.length,
    questionSeconds: game.questionSeconds,
    currentIndex: game.currentIndex,
    playerCount: row.playerCount,
    countsTowardLeaderboard: game.countsTowardLeaderboard,
    namesHidden: game.namesHidden,
    createdAt: game.createdAt.toISOString(),
    startedAt: game.startedAt?.toISOString() ?? null,
    endedAt: game.endedAt?.toISOString() ?? null,
  };
}

/** A game as a student of its class sees it: no PIN needed, nothing of its questions. */
export function presentStudentGame(row: Pick<GameSummaryRow, 'game' | 'quizTitle' | 'className'>): StudentLiveGame {
  const { game } = row;
  return {
    _id: game.id,
    state: game.state,
    quiz: { title: row.quizTitle },
    class: { _id: game.classId, name: row.className },
    questionCount: game.questionCount,
    currentIndex: game.currentIndex,
  };
}

export function presentFinishedGame(row: GameSummaryRow): FinishedLiveGame {
  const { game } = row;
  return {
    _id: game.id,
    class: { _id: game.classId, name: row.className },
    createdBy: game.hostTeacherId && row.hostName !== null ? { _id: game.hostTeacherId, name: row.hostName } : null,
    startedAt: game.startedAt?.toISOString() ?? null,
    endedAt: (game.endedAt ?? game.updatedAt).toISOString(),
    questionCount: game.questionCount,
    questionsPlayed: game.currentIndex + 1,
    playerCount: row.playerCount,
    countsTowardLeaderboard: game.countsTowardLeaderboard,
  };
}

type OpenGame = Pick<
  LiveGameRow,
  'currentIndex' | 'questionCount' | 'questionOpenedAt' | 'questionDeadline' | 'questionSeconds'
>;

/** The open question as it goes to players and the projector: content only, the server's times. */
export function presentOpenedQuestion(
  game: OpenGame,
  question: StoredQuestion,
  signImage: ImageSigner,
  now: Date,
): OpenedQuestion {
  return {
    index: game.currentIndex,
    count: game.questionCount,
    question: presentQuestion(question, { signImage, showsKey: false }),
    openedAt: game.questionOpenedAt!.toISOString(),
    deadline: game.questionDeadline!.toISOString(),
    durationMs: game.questionSeconds * 1000,
    serverTime: now.toISOString(),
  };
}

/** A closed question with its key: to everyone in the game once it has closed, and in the report. */
export const presentClosedQuestion = (question: StoredQuestion, signImage: ImageSigner) =>
  presentQuestion(question, { signImage, showsKey: true });

/** A ranked player as the leaderboard and the podium show them: no name while the host hides names. */
export function presentRanked(
  standing: { studentId: string; name: string; score: number; rank: number; streak: number },
  previousRank: number | null,
  namesHidden: boolean,
): RankedPlayer {
  return {
    _id: standing.studentId,
    name: namesHidden ? null : standing.name,
    score: standing.score,
    rank: standing.rank,
    previousRank,
    streak: standing.streak,
  };
}
