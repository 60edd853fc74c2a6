import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { studentLiveGameQueries } from './live-joining-api.ts';

/** How often a dashboard asks for games, while it is visible: a game appears without a reload. */
export const LIVE_GAMES_REFRESH_MS = 10_000;

export const playerPath = (gameId: string) => `/dashboard/student/live/${gameId}`;

/** One banner: where it goes, what it says, and its button's word ("Join", "Open"). */
export type LiveGameBanner = { id: string; to: string; text: ReactNode; action: ReactNode };

/**
 * A dashboard's live games, one link each, fixed at the bottom of the screen, where a thumb
 * reaches it, so that its arrival moves nothing else on the page. Nothing at all while there is
 * none. The student's "Join" and the teacher's "Open" share it.
 */
export function LiveGameBannerList({ banners }: { banners: LiveGameBanner[] }) {
  const { t } = useLingui();
  if (banners.length === 0) return null;
  return (
    <>
      <section
        aria-label={t`Live games`}
        className="fixed inset-x-0 bottom-0 z-40 flex flex-col gap-2 p-3 sm:inset-x-auto sm:end-6 sm:bottom-6 sm:w-96 sm:p-0"
      >
        {banners.map((banner) => (
          <Link
            key={banner.id}
            to={banner.to}
            className="flex items-center gap-3 rounded-2xl bg-brand-700 px-4 py-3 text-white shadow-lg hover:bg-brand-800"
          >
            <Radio className="size-6 shrink-0 motion-safe:animate-pulse" aria-hidden="true" />
            <span className="min-w-0 flex-1 font-semibold wrap-anywhere">{banner.text}</span>{' '}
            <span className="shrink-0 rounded-lg bg-white px-3 py-1.5 text-sm font-bold text-brand-700">
              {banner.action}
            </span>
          </Link>
        ))}
      </section>
      {/* Room at the page's end, so that the banners never cover its last lines (a phone's are
          full width and shorter; a desktop's wrap to three lines in their corner). */}
      <div aria-hidden="true" style={{ height: `${banners.length * 4.5}rem` }} className="sm:hidden" />
      <div aria-hidden="true" style={{ height: `${banners.length * 6.5 + 1}rem` }} className="max-sm:hidden" />
    </>
  );
}

/** "Live game in 10-A — Join" (issue 34): a banner per game not over of the student's classes. */
export function LiveGameBanners() {
  // Refetched while the tab is visible only (TanStack pauses the interval in the background);
  // a failed poll says nothing: the next one tries again.
  const games = useQuery({
    ...studentLiveGameQueries.forStudent(),
    refetchInterval: LIVE_GAMES_REFRESH_MS,
    meta: { errorToast: false },
  });
  const banners = (games.data ?? [])
    .filter((game) => game.state !== 'ended')
    .map((game) => {
      const className = game.class.name;
      return {
        id: game._id,
        to: playerPath(game._id),
        text: (
          <Trans>
            Live game in <bdi>{className}</bdi>
          </Trans>
        ),
        action: <Trans>Join</Trans>,
      };
    });
  return <LiveGameBannerList banners={banners} />;
}
