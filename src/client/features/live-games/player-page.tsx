import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { BackLink } from '../../components/ui/back-link.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { dashboardPathFor } from '../../lib/session.ts';
import { useProfile } from '../session/profile.ts';
import { useNoBreakReminders } from '../student/study-mode/quiet-time.ts';
import { PlayerView } from './player-views.tsx';
import { useLiveSession } from './use-live-session.ts';

/** How often the countdown redraws while a question is open. */
const TICK_MS = 250;

/**
 * /dashboard/student/live/:gameId (issue 34): a student plays a live game on their phone, a
 * focused screen (router.tsx): no menu rail or header, the phone's whole width for the answers,
 * and a small Leave back to the dashboard (whose banner brings them back while the game runs). The
 * session (use-live-session.ts) keeps the game's socket and state; the views show it.
 */
export function Component() {
  const { gameId = '' } = useParams();
  const student = useProfile('student');
  const { t } = useLingui();
  return (
    <div className="flex flex-1 flex-col gap-3 p-3 sm:p-6">
      <PageTitle>{t`Live game`}</PageTitle>
      <nav aria-label={t`Live game`} className="mx-auto w-full max-w-xl">
        <BackLink to={dashboardPathFor('student')}>
          <Trans comment="Leaves a live game’s page (the projector or the phone); the game goes on">Leave</Trans>
        </BackLink>
      </nav>
      {/* A new game is a new session: the key gives it its own. */}
      <PlayerSession key={gameId} gameId={gameId} playerName={student?.name ?? ''} />
    </div>
  );
}

function PlayerSession({ gameId, playerName }: { gameId: string; playerName: string }) {
  const { session, snapshot } = useLiveSession(gameId);
  // A game is a class activity with its own pace: no study-mode break reminder over a question.
  useNoBreakReminders(snapshot.connection !== 'ended');
  const isTicking = snapshot.question !== null && snapshot.paused === null;
  const now = useNow(isTicking);
  const questionId = snapshot.question?.question._id;
  return (
    <PlayerView
      snapshot={snapshot}
      now={now}
      playerName={playerName}
      onAnswer={(value) => {
        if (questionId) session.answer(questionId, value);
      }}
    />
  );
}

/** The page's clock, redrawn every TICK_MS while `isTicking`. */
function useNow(isTicking: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    const tick = () => setNow(Date.now());
    // At once as well: the clock stood still between questions.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, TICK_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [isTicking]);
  return now;
}
