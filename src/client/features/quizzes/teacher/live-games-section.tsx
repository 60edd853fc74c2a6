import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import type { FinishedLiveGame } from '#shared/live-games';
import { buttonVariants } from '../../../components/ui/button-variants.ts';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../../components/ui/status-cards.tsx';
import { STACKED_TABLE } from '../../../components/ui/stacked-table.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { usePagedList } from '../../../lib/paged-list.ts';
import { liveGameQueries } from './live-game-queries.ts';

import { liveGameReportPath } from '../../live-games/play-live-path.ts';

/**
 * The quiz's finished live games on its analytics page (issue 34 point 6): class, date, players
 * and questions played, newest first, paged by the server; each opens its report. The page loads
 * this module when the teacher asks for the list: the analytics screen is at its budget.
 */
export function LiveGamesList({ quizId }: { quizId: string }) {
  const games = usePagedList(liveGameQueries.list(quizId));
  const { t } = useLingui();
  const cell = cn('border-b border-line px-3 py-2 align-top', STACKED_TABLE.line, 'max-sm:border-0');
  const headerCell = 'border-b border-line-strong bg-surface-muted px-3 py-2 text-start font-semibold';
  return (
    <>
      {games.isPending ? (
        <LoadingStatus className="mt-3">
          <Trans>Loading the live games…</Trans>
        </LoadingStatus>
      ) : games.isError && games.items.length === 0 ? (
        <LoadFailure
          className="mt-3"
          title={t`The live games could not be loaded`}
          message={games.error.message}
          onRetry={() => void games.refetch()}
        />
      ) : games.items.length === 0 ? (
        <EmptyState
          className="mt-3"
          title={t`No live games played yet`}
          hint={t`A game played live with a class is kept here once it ends, with its report.`}
        />
      ) : (
        <div className="mt-3 overflow-x-auto rounded-xl border border-line bg-surface shadow-sm">
          <table className={cn('min-w-full border-separate border-spacing-0 text-sm text-fg', STACKED_TABLE.table)}>
            <caption className="sr-only">
              <Trans>Finished live games of this quiz, newest first. Open one to see its report.</Trans>
            </caption>
            <thead className={STACKED_TABLE.head}>
              <tr>
                <th scope="col" className={headerCell}>
                  <Trans>Class</Trans>
                </th>
                <th scope="col" className={headerCell}>
                  <Trans>Ended</Trans>
                </th>
                <th scope="col" className={headerCell}>
                  <Trans>Players</Trans>
                </th>
                <th scope="col" className={headerCell}>
                  <Trans>Questions played</Trans>
                </th>
                <th scope="col" className={headerCell}>
                  <span className="sr-only">
                    <Trans>Report</Trans>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {games.items.map((game) => (
                <LiveGameRow key={game._id} quizId={quizId} game={game} cell={cell} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMoreButton list={games} className="mt-3" />
    </>
  );
}

function LiveGameRow({ quizId, game, cell }: { quizId: string; game: FinishedLiveGame; cell: string }) {
  const { t } = useLingui();
  const played = formatNumber(game.questionsPlayed);
  const total = formatNumber(game.questionCount);
  const ended = formatDateTime(game.endedAt);
  const className = game.class.name;
  return (
    <tr className={cn(STACKED_TABLE.row, 'max-sm:border-b max-sm:border-line max-sm:px-1')}>
      <th
        scope="row"
        className={cn(
          'border-b border-line px-3 py-2 text-start align-top font-medium wrap-anywhere',
          STACKED_TABLE.heading,
          'max-sm:border-0',
        )}
      >
        <bdi>{game.class.name}</bdi>
        {game.countsTowardLeaderboard ? (
          <span className="ms-2 inline-flex rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
            <Trans>Counts toward the leaderboard</Trans>
          </span>
        ) : null}
      </th>
      <td data-label={t`Ended`} className={cn(cell, 'whitespace-nowrap')}>
        <time dateTime={game.endedAt}>{ended}</time>
      </td>
      <td data-label={t`Players`} className={cn(cell, 'tabular-nums')}>
        {formatNumber(game.playerCount)}
      </td>
      <td data-label={t`Questions played`} className={cn(cell, 'tabular-nums')}>
        {t({
          comment: 'Questions a live game played of those it had, e.g. "4 of 5"',
          message: `${played} of ${total}`,
        })}
      </td>
      <td className={cn(cell, 'text-end max-sm:pt-1')}>
        <Link
          to={liveGameReportPath(quizId, game._id)}
          className={buttonVariants({ variant: 'secondary', size: 'sm' })}
        >
          <Trans>
            Report
            <span className="sr-only">
              : {className}, {ended}
            </span>
          </Trans>
          <ChevronRight className="size-4 rtl:-scale-x-100" aria-hidden="true" />
        </Link>
      </td>
    </tr>
  );
}
