import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useParams, useSearchParams } from 'react-router';
import { isRoomId, MEETING_LIMITS } from '#shared/meetings';
import { formatNumber, isolate } from '../../lib/format.ts';
import { buttonVariants } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { useProfile } from '../session/profile.ts';
import { emeetPath, readMeetingArrival } from './meeting-links.ts';
import { MeetingRoom } from './meeting-room.tsx';
import { MeetingSession } from './meeting-session.ts';
import { fetchMeetingTicket } from './meetings-api.ts';
import { PreJoin, type JoinChoice } from './pre-join.tsx';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { useNoBreakReminders } from '../student/study-mode/quiet-time.ts';

/**
 * /dashboard/{role}/meet/{roomID}?token=…&meetingId=…&webcamEnabled=…&micEnabled=…
 * (SPEC §2): the pre-join preview, then the meeting. A lazy chunk of its own.
 */
export function Component() {
  useNoBreakReminders();
  const role = useDashboardRole();
  const roomId = useParams().roomID ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const arrival = useMemo(() => readMeetingArrival(searchParams), [searchParams]);
  const profile = useProfile(role);
  const [session, setSession] = useState<MeetingSession | null>(null);
  const { t } = useLingui();
  const meetingTitle = (roomId: string) => t`Meeting ${roomId}`;

  // A fresh token replaces the old in the address, so a reload joins without asking again;
  // never once the page is gone (it would land in the address of the next screen).
  const isShown = useRef(true);
  useEffect(() => {
    isShown.current = true;
    return () => {
      isShown.current = false;
    };
  }, []);
  const keepToken = useCallback(
    (token: string) =>
      isShown.current &&
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('token', token);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  if (!isRoomId(roomId)) {
    const min = formatNumber(MEETING_LIMITS.roomIdMin);
    const max = formatNumber(MEETING_LIMITS.roomIdMax);
    return (
      <section className="mx-auto flex max-w-xl flex-col gap-4">
        <PageTitle>{t`Meeting`}</PageTitle>
        <h1 className="text-2xl font-bold text-fg">
          <Trans>This meeting link is not valid</Trans>
        </h1>
        <p className="text-fg">
          {t`A room ID is ${min} to ${max} letters, digits, - or _. Check the link you were sent.`}
        </p>
        <Link to={emeetPath(role)} className={cn(buttonVariants(), 'self-start')}>
          <Trans>Enter a room ID</Trans>
        </Link>
      </section>
    );
  }
  if (!profile) return <LoadingStatus>{t`Opening the meeting…`}</LoadingStatus>;

  const join = (choice: JoinChoice) =>
    setSession(
      new MeetingSession({
        roomId,
        userId: profile._id,
        initialToken: arrival.token,
        fetchTicket: fetchMeetingTicket,
        camera: choice.camera,
        microphone: choice.microphone,
        onTokenRenewed: keepToken,
        // A teacher muting you is news, not a failure: no red mark.
        onNotice: (message, kind) => (kind === 'error' ? toast.error(message) : toast(message)),
      }),
    );

  return (
    <>
      <PageTitle>{meetingTitle(isolate(roomId))}</PageTitle>
      {session ? (
        <MeetingRoom
          key={roomId}
          session={session}
          role={role}
          roomId={roomId}
          yourName={profile.name}
          onJoinAgain={() => setSession(null)}
        />
      ) : (
        <PreJoin
          roomId={roomId}
          initialWish={{ camera: arrival.isCameraWanted, microphone: arrival.isMicWanted }}
          startsMuted={role === 'student'}
          onJoin={join}
        />
      )}
    </>
  );
}
