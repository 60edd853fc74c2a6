import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LIVE_GAMES_REFRESH_MS, LiveGameBannerList } from './live-game-banner.tsx';
import { liveGameQueries } from './live-games-api.ts';
import { liveHostPath } from './play-live-path.ts';

/**
 * "Live game running: Fractions in 7-B · Open" (review of issue 34): on the teacher's dashboard, a
 * banner per game not over of the classes they teach, whose Open is the host's page (the projector),
 * so a teacher who left it, or whose computer restarted, finds the game again; the student's
 * banners' shape.
 */
export function RunningGamesBanners() {
  // As the student's: refetched while the tab is visible, a failed poll silent.
  const games = useQuery({
    ...liveGameQueries.forTeacher(),
    refetchInterval: LIVE_GAMES_REFRESH_MS,
    meta: { errorToast: false },
  });
  const banners = (games.data ?? [])
    .filter((game) => game.state !== 'ended')
    .map((game) => {
      const quizTitle = game.quiz.title;
      const className = game.class.name;
      return {
        id: game._id,
        to: liveHostPath(game._id),
        text: (
          <Trans>
            Live game running: <bdi>{quizTitle}</bdi> in <bdi>{className}</bdi>
          </Trans>
        ),
        action: (
          <Trans context="verb" comment="Opens the host page (the projector) of a running live game">
            Open
          </Trans>
        ),
      };
    });
  return <LiveGameBannerList banners={banners} />;
}
