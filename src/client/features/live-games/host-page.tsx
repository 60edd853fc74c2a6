import { Trans, useLingui } from '@lingui/react/macro';
import { Maximize, Minimize } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useParams } from 'react-router';
import type { LiveHostCommandInput } from '#shared/live-games';
import { BackLink } from '../../components/ui/back-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { useFullscreen } from '../../lib/use-fullscreen.ts';
import { useTypedAnswersHidden } from './host-preferences.ts';
import { HostQrCode } from './host-qr-code.tsx';
import { hostRefusalText } from './host-texts.ts';
import { HostView } from './host-view.tsx';
import type { LiveSnapshot } from './live-session.ts';
import { useLiveSession } from './use-live-session.ts';

/** The countdown's tick: a second shown is never more than a quarter of a second late. */
const TICK_MS = 250;

/** This page's clock, ticking only while a question's time runs (not paused, not between questions). */
function useTickingNow(isTicking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => setNow(Date.now());
    // At once too: the clock last read when the previous question closed.
    const first = setTimeout(tick, 0);
    const timer = isTicking ? setInterval(tick, TICK_MS) : undefined;
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [isTicking]);
  return now;
}

/** Each refusal of a command, once, as a toast in the host's words (the same code twice is two refusals). */
function useRefusalToast(refusal: LiveSnapshot['refusal']) {
  const shown = useRef(refusal?.seq ?? 0);
  useEffect(() => {
    if (!refusal || refusal.seq === shown.current) return;
    shown.current = refusal.seq;
    toast.error(hostRefusalText(refusal.code), { id: 'live-host-refusal' });
  }, [refusal]);
}

/** Where "Leave" goes: the teacher's quizzes (the game goes on; the dashboard's banner brings them back). */
export const QUIZ_LIST_PATH = '/dashboard/teacher/all-quiz';

/**
 * The projector's own small bar, in place of the dashboard's header and menu: a way out, and the
 * whole screen for the game where the browser allows it (none is offered where it does not).
 */
function ProjectorBar() {
  const { t } = useLingui();
  const { isFullscreen, isSupported, requestFullscreen, exitFullscreen } = useFullscreen();
  const handleFullscreen = async () => {
    try {
      await (isFullscreen ? exitFullscreen() : requestFullscreen());
    } catch {
      toast.error(t`Your browser did not allow full screen here.`, { id: 'live-host-fullscreen' });
    }
  };
  return (
    <nav aria-label={t`Live game`} className="flex items-center justify-between gap-3">
      <BackLink to={QUIZ_LIST_PATH}>
        <Trans comment="Leaves a live game’s page (the projector or the phone); the game goes on">Leave</Trans>
      </BackLink>
      {isSupported ? (
        <Button variant="ghost" size="sm" onClick={() => void handleFullscreen()}>
          {isFullscreen ? (
            <>
              <Minimize className="size-4" aria-hidden="true" />
              <Trans>Exit full screen</Trans>
            </>
          ) : (
            <>
              <Maximize className="size-4" aria-hidden="true" />
              <Trans>Full screen</Trans>
            </>
          )}
        </Button>
      ) : null}
    </nav>
  );
}

function HostScreen({
  gameId,
  onTakeBack,
  isTakenBack,
}: {
  gameId: string;
  onTakeBack(): void;
  /** This screen took the game back from another one: the focus goes to its heading once the game is back. */
  isTakenBack: boolean;
}) {
  const { session, snapshot } = useLiveSession(gameId);
  const { t } = useLingui();
  const [typedAnswersHidden, setTypedAnswersHidden] = useTypedAnswersHidden();
  const now = useTickingNow(snapshot.state === 'question-open' && snapshot.connection === 'live');
  useRefusalToast(snapshot.refusal);
  const origin = window.location.origin;
  const pin = snapshot.game?.pin;
  const send = (command: LiveHostCommandInput) => {
    if (!session.command(command)) {
      toast.error(t`Not connected to the game: try again once it is back.`, { id: 'live-host-offline' });
    }
  };
  const title = snapshot.game?.quiz.title;
  return (
    <div className="flex flex-1 flex-col gap-4 p-3 sm:p-6">
      <PageTitle>{title ? t`Live: ${title}` : t`Live game`}</PageTitle>
      <ProjectorBar />
      <HostView
        snapshot={snapshot}
        now={now}
        joinUrl={`${origin}/live`}
        qrCode={
          pin ? (
            <HostQrCode
              value={`${origin}/live?pin=${encodeURIComponent(pin)}`}
              label={t`QR code: scan it to join the game with its PIN`}
            />
          ) : null
        }
        onCommand={send}
        typedAnswersHidden={typedAnswersHidden}
        onTypedAnswersHiddenChange={setTypedAnswersHidden}
        onTakeBack={onTakeBack}
        focusHeading={isTakenBack}
      />
    </div>
  );
}

/**
 * /dashboard/teacher/live/:gameId (issue 34 point 2): the host's page of a live game, the whole
 * window for a projector (a focused screen: no dashboard header or menu, router.tsx). Reloaded or
 * opened on another computer, it takes the game back: the session's welcome is the whole state.
 */
export function Component() {
  const gameId = useParams().gameId ?? '';
  // Each time this screen takes the game back from another one, a new session: the old one's
  // socket ended for good when the other screen took the seat.
  const [takings, setTakings] = useState(0);
  // A new game is a new session (useLiveSession keeps the one it made first).
  return (
    <HostScreen
      key={`${gameId}:${takings}`}
      gameId={gameId}
      onTakeBack={() => setTakings((count) => count + 1)}
      isTakenBack={takings > 0}
    />
  );
}
