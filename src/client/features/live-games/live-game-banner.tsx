import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import { Link } from 'react-router';
import { studentLiveGameQueries } from './live-joining-api.ts';

/** How often the student's dashboard asks for games, while it is visible: a game appears without a reload. */
const REFRESH_MS = 10_000;

export const playerPath = (gameId: string) => `/dashboard/student/live/${gameId}`;

/**
 * "Live game in 10-A — Join" (issue 34): one link per game not over of the student's classes,
 * fixed at the bottom of the screen, where a thumb reaches it, so that its arrival moves nothing
 * else on the page. Nothing at all while there is none.
 */
export function LiveGameBanners() {
  const { t } = useLingui();
  // Refetched while the tab is visible only (TanStack pauses the interval in the background);
  // a failed poll says nothing: the next one tries again.
  const games = useQuery({
    ...studentLiveGameQueries.forStudent(),
    refetchInterval: REFRESH_MS,
    meta: { errorToast: false },
  });
  const open = (games.data ?? []).filter((game) => game.state !== 'ended');
  if (open.length === 0) return null;
  return (
    <>
      <section
        aria-label={t`Live games`}
        className="fixed inset-x-0 bottom-0 z-40 flex flex-col gap-2 p-3 sm:inset-x-auto sm:end-6 sm:bottom-6 sm:w-96 sm:p-0"
      >
        {open.map((game) => {
          const className = game.class.name;
          return (
            <Link
              key={game._id}
              to={playerPath(game._id)}
              className="flex items-center gap-3 rounded-2xl bg-brand-700 px-4 py-3 text-white shadow-lg hover:bg-brand-800"
            >
              <Radio className="size-6 shrink-0 motion-safe:animate-pulse" aria-hidden="true" />
              <span className="min-w-0 flex-1 font-semibold">
                <Trans>
                  Live game in <bdi>{className}</bdi>
                </Trans>
              </span>{' '}
              <span className="shrink-0 rounded-lg bg-white px-3 py-1.5 text-sm font-bold text-brand-700">
                <Trans>Join</Trans>
              </span>
            </Link>
          );
        })}
      </section>
      {/* Room at the page's end, so that the banner never covers its last lines. */}
      <div aria-hidden="true" style={{ height: `${open.length * 4.5}rem` }} className="sm:hidden" />
    </>
  );
}
