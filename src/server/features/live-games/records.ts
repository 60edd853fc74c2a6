import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { LIVE_GAME_LIMITS } from '#shared/live-games';
import type { Database } from '../../db/client.ts';
import type { AnswerValue } from '#shared/question-types';
import { classes, liveAnswers, liveGames, livePlayers, quizzes, teachers } from '../../db/schema.ts';

/**
 * The live-game lookups the REST service and the play module share: a game with the names its
 * views show, and what "active" means. No rules of their own.
 */

export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute' | 'delete'>;

/** Both drivers (node-postgres, PGlite) answer a raw statement with { rows }. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

// A game's questions can be a whole quiz's text: read only where they are used.
const { questions: _questions, ...columnsButQuestions } = getTableColumns(liveGames);
export const gameColumns = columnsButQuestions;

/** The players not removed, for the summaries' count. */
export const playerCountSql = sql<number>`(select count(*)::int from ${livePlayers}
  where ${livePlayers.gameId} = ${liveGames.id} and not ${livePlayers.removed})`;

/** The moment before which a game not ended and untouched counts as abandoned. */
export const idleBefore = (now: Date) => new Date(now.getTime() - LIVE_GAME_LIMITS.idleHours * 3_600_000);

/** A game is over once ended, or abandoned by its hosts (no command for idleHours). */
export const isOver = (game: { state: string; updatedAt: Date }, now: Date) =>
  game.state === 'ended' || game.updatedAt < idleBefore(now);

/** A game not over, in SQL (the lists and the PIN look-up). */
export const isActiveSql = (now: Date) =>
  and(sql`${liveGames.state} <> 'ended'`, sql`${liveGames.updatedAt} >= ${idleBefore(now).toISOString()}::timestamptz`);

/** The game with its quiz's title, its class's and creator's names and its player count: every summary's row. */
export function selectGameSummaries(db: Pick<Database, 'select'>) {
  return db
    .select({
      game: gameColumns,
      quizTitle: quizzes.title,
      className: classes.name,
      hostName: teachers.name,
      playerCount: playerCountSql,
    })
    .from(liveGames)
    .innerJoin(quizzes, eq(quizzes.id, liveGames.quizId))
    .innerJoin(classes, eq(classes.id, liveGames.classId))
    .leftJoin(teachers, eq(teachers.id, liveGames.hostTeacherId));
}
export type GameSummaryRow = Awaited<ReturnType<ReturnType<typeof selectGameSummaries>['execute']>>[number];

export async function findGameSummary(db: Pick<Database, 'select'>, gameId: string): Promise<GameSummaryRow | null> {
  const [row] = await selectGameSummaries(db).where(eq(liveGames.id, gameId)).limit(1);
  return row ?? null;
}

/**
 * An answer's value, read as JSON text: an answer may be a bare string that reads as JSON ("7",
 * "true"), which Drizzle's jsonb mapping would parse a second time, after the driver, into a
 * number or a boolean. Read with answerValueOf.
 */
export const answerValueText = sql<string | null>`${liveAnswers.value}::text`;
export const answerValueOf = (text: string | null): AnswerValue | null =>
  text === null ? null : (JSON.parse(text) as AnswerValue);
