import { t } from '@lingui/core/macro';
import { liveGameReportCsv } from '#shared/live-game-report';
import type { LiveGameReport } from '#shared/live-games';
import { responseText, semicolonList } from '../question-response.ts';
import { slugify } from './analytics-csv.ts';

/**
 * A finished live game's report as a CSV file (decision 066): the shared builder with headers in
 * the reader's language (decision 055), the answers as the analytics' CSV writes them ("; "
 * between several, the same in every language).
 */
export function liveReportCsv(report: LiveGameReport): string {
  return liveGameReportCsv(report, {
    name: t`Name`,
    rollNumber: t`Roll number`,
    score: t`Score`,
    rank: t`Rank`,
    removed: t({ comment: 'A player the host removed from a live game', message: 'Removed' }),
    answer: (number, text) =>
      t({ comment: 'A CSV column: Q1 is question 1, then its text', message: `Q${number}: ${text}` }),
    points: (number) =>
      t({
        comment: 'A CSV column: the points a live game gave the answer to question 1',
        message: `Q${number} points`,
      }),
    answerText: (question, value) => responseText(question, value, semicolonList),
  });
}

/** The file to download: UTF-8 with a byte order mark (spreadsheets read it so), named after the class and the day. */
export function liveReportCsvFile(report: LiveGameReport): { blob: Blob; fileName: string } {
  const day = report.game.endedAt.slice(0, 10);
  return {
    // toCsv starts with the byte order mark already.
    blob: new Blob([liveReportCsv(report)], { type: 'text/csv;charset=utf-8' }),
    fileName: `${slugify(report.game.class.name)}-live-game-${day}.csv`,
  };
}
