import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  ChevronLeft,
  ChevronRight,
  LayoutGrid,
  Link as LinkIcon,
  MessageSquare,
  Mic,
  MicOff,
  MonitorUp,
  MonitorX,
  PhoneOff,
  SquareUser,
  Users,
  Video,
  VideoOff,
  type LucideIcon,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { Link } from 'react-router';
import type { UserRole } from '#shared/constants';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ChatPanel } from './chat-panel.tsx';
import { useGallery, type MeetingLayout } from './gallery.ts';
import { deviceFailureText, MediaDeviceError } from './local-media.ts';
import { connectionNoteText, meetingEndText } from './meeting-texts.ts';
import { formatNumber } from '../../lib/format.ts';
import { loginPathFor } from '../../lib/session.ts';
import { emeetPath } from './meeting-links.ts';
import {
  LOCAL_SPEAKER,
  type MeetingEnd,
  type MeetingSession,
  type MeetingSnapshot,
  type RemoteParticipant,
} from './meeting-session.ts';
import { ParticipantTile } from './participant-tile.tsx';
import { ParticipantsPanel } from './participants-panel.tsx';
import { RaiseHandButton, RoomLockedMark } from './raise-hand.tsx';
import { useMeetingSession } from './use-meeting-session.ts';
import { RemoteAudio } from './video-surface.tsx';
import { useCopyInviteLink } from './use-copy-invite-link.ts';

type Panel = 'chat' | 'people' | null;

/** A ref that moves the focus to a screen's heading when it appears, so keyboard and screen-reader users follow. */
const focusWhenShown = (element: HTMLElement | null) => element?.focus({ preventScroll: true });

/** Phones' browsers cannot share a screen: the button is offered only where it works. */
const canShareScreen =
  typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';

/** Columns for this many tiles: the grid stays close to square on a wide screen. */
function gridColumns(tileCount: number): string {
  if (tileCount <= 1) return 'grid-cols-1';
  if (tileCount <= 4) return 'grid-cols-1 sm:grid-cols-2';
  return 'grid-cols-2 lg:grid-cols-3';
}

/** The meeting itself: the grid of people, the controls, the chat and the participant list. */
export function MeetingRoom({
  session,
  role,
  roomId,
  yourName,
  onJoinAgain,
}: {
  session: MeetingSession;
  role: UserRole;
  roomId: string;
  yourName: string;
  onJoinAgain(): void;
}) {
  const snapshot = useMeetingSession(session);
  const [panel, setPanel] = useState<Panel>(null);
  const copyInviteLink = useCopyInviteLink(roomId);
  const gallery = useGallery(session, snapshot);

  if (snapshot.phase === 'ended' && snapshot.end) {
    return <MeetingEnded end={snapshot.end} role={role} onJoinAgain={onJoinAgain} />;
  }

  const openPanel = (next: Panel) => {
    const value = panel === next ? null : next;
    setPanel(value);
    session.setChatOpen(value === 'chat');
  };
  // Closing a panel (its X or Escape) gives the focus back to the button that opened it.
  const closePanel = () => {
    const closing = panel;
    openPanel(null);
    document.querySelector<HTMLElement>(`[data-panel-toggle="${closing}"]`)?.focus();
  };

  const tiles = meetingTiles(snapshot, yourName, gallery.shown);
  const isSpeakerView = gallery.layout === 'speaker' && gallery.shown.length > 0;
  return (
    <div className="flex h-[calc(100dvh-65px-2rem)] min-h-[32rem] flex-col gap-3 sm:h-[calc(100dvh-65px-4rem)]">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 ref={focusWhenShown} tabIndex={-1} className="text-xl font-bold text-fg outline-none">
          <Trans>
            Meeting{' '}
            <bdi dir="ltr" className="font-mono text-base font-semibold text-muted">
              {roomId}
            </bdi>
          </Trans>
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          {snapshot.isLocked ? <RoomLockedMark /> : null}
          <LayoutSwitch layout={gallery.layout} onLayout={gallery.setLayout} />
          <Button variant="secondary" onClick={() => void copyInviteLink()}>
            <LinkIcon className="size-4" aria-hidden="true" />
            <Trans>Copy invite link</Trans>
          </Button>
        </div>
      </div>
      <ConnectionBanner snapshot={snapshot} />
      <div className="relative flex min-h-0 flex-1 gap-3">
        {isSpeakerView ? (
          <div className="relative flex min-h-0 flex-1 flex-col gap-2 p-1 [&>*:first-child]:flex-1">
            {tiles.slice(1)}
            <div className="absolute end-3 bottom-3 w-32 sm:w-48">{tiles[0]}</div>
          </div>
        ) : (
          <div className={`grid min-h-0 flex-1 auto-rows-fr gap-2 p-1 ${gridColumns(tiles.length)}`}>{tiles}</div>
        )}
        {panel ? (
          // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape from any control inside the panel closes it (the key bubbles up)
          <aside
            onKeyDown={(event) => {
              if (event.key === 'Escape') closePanel();
            }}
            className="absolute inset-0 z-10 flex min-h-0 flex-col rounded-xl border border-line bg-surface shadow-lg md:static md:w-80 md:shadow-none"
          >
            {panel === 'chat' ? (
              <ChatPanel
                session={session}
                lines={snapshot.chat}
                canSend={snapshot.phase === 'joined'}
                onClose={closePanel}
              />
            ) : (
              <ParticipantsPanel session={session} snapshot={snapshot} yourName={yourName} onClose={closePanel} />
            )}
          </aside>
        ) : null}
      </div>
      {gallery.layout === 'gallery' && gallery.pageCount > 1 ? (
        <GalleryPager page={gallery.page} pageCount={gallery.pageCount} onPage={gallery.setPage} />
      ) : null}
      {snapshot.remotes.map((remote) =>
        remote.incoming ? <RemoteAudio key={remote.id} stream={remote.incoming.audio} /> : null,
      )}
      <MeetingControls session={session} snapshot={snapshot} panel={panel} onPanel={openPanel} />
    </div>
  );
}

/** Gallery (a page of people) or speaker view (whoever speaks, large). */
function LayoutSwitch({ layout, onLayout }: { layout: MeetingLayout; onLayout(layout: MeetingLayout): void }) {
  const isSpeaker = layout === 'speaker';
  return (
    <Button variant="secondary" aria-pressed={isSpeaker} onClick={() => onLayout(isSpeaker ? 'gallery' : 'speaker')}>
      {isSpeaker ? (
        <SquareUser className="size-4" aria-hidden="true" />
      ) : (
        <LayoutGrid className="size-4" aria-hidden="true" />
      )}
      <Trans>Speaker view</Trans>
    </Button>
  );
}

/** The gallery's pages: everyone is heard on every page; only the page's cameras are received. */
function GalleryPager({ page, pageCount, onPage }: { page: number; pageCount: number; onPage(page: number): void }) {
  const { t } = useLingui();
  const shownPage = formatNumber(page + 1);
  const lastPage = formatNumber(pageCount);
  return (
    <nav aria-label={t`Gallery pages`} className="flex items-center justify-center gap-3">
      <Button variant="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        <ChevronLeft className="size-4 rtl:-scale-x-100" aria-hidden="true" />
        <Trans>Previous people</Trans>
      </Button>
      <p className="text-sm text-muted" aria-live="polite">
        <Trans>
          Page {shownPage} of {lastPage}
        </Trans>
      </p>
      <Button variant="secondary" disabled={page === pageCount - 1} onClick={() => onPage(page + 1)}>
        <Trans>Next people</Trans>
        <ChevronRight className="size-4 rtl:-scale-x-100" aria-hidden="true" />
      </Button>
    </nav>
  );
}

/** Our own tile, then any shared screens, then the others on screen in the order they came. */
function meetingTiles(snapshot: MeetingSnapshot, yourName: string, shown: RemoteParticipant[]): ReactNode[] {
  const { local, remotes, speaking } = snapshot;
  const tiles: ReactNode[] = [
    <ParticipantTile
      key="you"
      name={yourName}
      isLocal
      video={{ track: local.camera }}
      isCameraOff={!local.media.camera}
      isMicOff={!local.media.mic}
      isSpeaking={speaking.has(LOCAL_SPEAKER)}
      isHandRaised={snapshot.you?.hand != null}
    />,
  ];
  if (local.screen) {
    tiles.push(
      <ParticipantTile
        key="your-screen"
        name={yourName}
        isLocal
        isScreen
        video={{ track: local.screen }}
        isCameraOff={false}
        isMicOff={false}
        isSpeaking={false}
      />,
    );
  }
  for (const remote of remotes) {
    if (remote.media.screen && remote.incoming) {
      tiles.push(
        <ParticipantTile
          key={`${remote.id}-screen`}
          name={remote.name}
          isScreen
          video={{ stream: remote.incoming.screen }}
          isCameraOff={false}
          isMicOff={false}
          isSpeaking={false}
          link={remote.link}
        />,
      );
    }
  }
  for (const remote of shown) {
    tiles.push(
      <ParticipantTile
        key={remote.id}
        name={remote.name}
        role={remote.role}
        video={{ stream: remote.incoming?.camera ?? null }}
        isCameraOff={!remote.media.camera}
        isMicOff={!remote.media.mic}
        isSpeaking={speaking.has(remote.id)}
        link={remote.link}
        isHandRaised={remote.hand !== null}
      />,
    );
  }
  return tiles;
}

function ConnectionBanner({ snapshot }: { snapshot: MeetingSnapshot }) {
  const { t } = useLingui();
  const note = snapshot.connectionNote;
  // Offline, the meeting may still flow browser to browser on a local network, but nobody can join or leave.
  const text = !snapshot.isOnline
    ? connectionNoteText('OFFLINE')
    : snapshot.phase === 'joined'
      ? note && connectionNoteText(note)
      : snapshot.phase === 'joining' && !note
        ? t`Joining the meeting…`
        : note
          ? connectionNoteText(note)
          : t`Reconnecting…`;
  if (!text) return null;
  return (
    <p
      role="status"
      className="flex items-center gap-3 rounded-lg border border-warning-line bg-warning-soft px-4 py-2 text-warning"
    >
      <Spinner className="size-5" />
      {text}
    </p>
  );
}

/** A device action that may fail (blocked, missing, cancelled): its message as a toast. */
async function withDeviceMessage(action: () => Promise<void>) {
  try {
    await action();
  } catch (error) {
    // Cancelling the screen picker is a choice, not a failure.
    if (error instanceof MediaDeviceError && error.device === 'screen' && error.problem === 'denied') return;
    toast.error(deviceFailureText(error));
  }
}

/**
 * One button of the toolbar: an icon and its label (read aloud only, on phones),
 * pressed or not. A device shows `offIcon` in red when off; a panel or a shared
 * screen is filled while pressed.
 */
function ControlButton({
  label,
  isPressed,
  icon: Icon,
  offIcon: OffIcon,
  panel,
  onClick,
  children,
}: {
  label: string;
  isPressed: boolean;
  icon: LucideIcon;
  offIcon?: LucideIcon;
  /** The panel this button opens, so closing the panel can give it the focus back. */
  panel?: Panel;
  onClick(): void;
  children?: ReactNode;
}) {
  const isOff = OffIcon !== undefined && !isPressed;
  const ShownIcon = isOff ? OffIcon : Icon;
  return (
    <Button
      variant={isPressed && !OffIcon ? 'primary' : 'secondary'}
      size="custom"
      className="min-w-11 px-2.5 py-2.5 text-sm sm:px-3"
      aria-pressed={isPressed}
      data-panel-toggle={panel ?? undefined}
      onClick={onClick}
    >
      <ShownIcon className={`size-5 ${isOff ? 'text-danger' : ''}`} aria-hidden="true" />
      <span className="max-sm:sr-only">{label}</span>
      {children}
    </Button>
  );
}

function MeetingControls({
  session,
  snapshot,
  panel,
  onPanel,
}: {
  session: MeetingSession;
  snapshot: MeetingSnapshot;
  panel: Panel;
  onPanel(panel: Panel): void;
}) {
  const { t } = useLingui();
  const { mic, camera, screen } = snapshot.local.media;
  const unread = snapshot.unreadChat;
  return (
    <div
      role="toolbar"
      aria-label={t`Meeting controls`}
      className="flex flex-wrap items-center justify-center gap-2 rounded-xl bg-surface-inverse p-2"
    >
      <ControlButton
        label={t`Microphone`}
        isPressed={mic}
        icon={Mic}
        offIcon={MicOff}
        onClick={() => void withDeviceMessage(() => session.setMicrophone(!mic))}
      />
      <ControlButton
        label={t`Camera`}
        isPressed={camera}
        icon={Video}
        offIcon={VideoOff}
        onClick={() => void withDeviceMessage(() => session.setCamera(!camera))}
      />
      {canShareScreen ? (
        <ControlButton
          label={t`Share screen`}
          isPressed={screen}
          icon={screen ? MonitorX : MonitorUp}
          onClick={() =>
            void withDeviceMessage(() => (screen ? session.stopScreenShare() : session.startScreenShare()))
          }
        />
      ) : null}
      <RaiseHandButton session={session} snapshot={snapshot} />
      <ControlButton
        label={t`Participants`}
        isPressed={panel === 'people'}
        icon={Users}
        panel="people"
        onClick={() => onPanel('people')}
      >
        <span className="rounded-full bg-surface-muted px-1.5 text-xs text-fg">
          {formatNumber(snapshot.remotes.length + 1)}
        </span>
      </ControlButton>
      <ControlButton
        label={t`Chat`}
        isPressed={panel === 'chat'}
        icon={MessageSquare}
        panel="chat"
        onClick={() => onPanel('chat')}
      >
        {unread > 0 ? (
          <span className="rounded-full bg-brand-700 px-1.5 text-xs text-white ring-1 ring-white">
            <span aria-hidden="true">{formatNumber(unread)}</span>
            <span className="sr-only">
              <Plural value={unread} one="# unread message" other="# unread messages" />
            </span>
          </span>
        ) : null}
      </ControlButton>
      <Button
        variant="danger"
        size="custom"
        className="min-w-11 px-2.5 py-2.5 text-sm sm:px-3"
        onClick={() => session.leave()}
      >
        <PhoneOff className="size-5" aria-hidden="true" />
        <span className="max-sm:sr-only">
          <Trans>Leave</Trans>
        </span>
      </Button>
    </div>
  );
}

/** After the meeting: what happened, in words, and the way back in when there is one. */
function MeetingEnded({ end, role, onJoinAgain }: { end: MeetingEnd; role: UserRole; onJoinAgain(): void }) {
  const { t } = useLingui();
  const isLeft = end.reason === 'LEFT';
  const heading =
    end.reason === 'LEFT'
      ? t`You left the meeting`
      : end.reason === 'REMOVED'
        ? t`You were removed from this meeting`
        : end.reason === 'ROOM_LOCKED'
          ? t`This room is locked`
          : end.reason === 'ROOM_FULL'
            ? t`This room is full`
            : end.reason === 'REPLACED'
              ? t`You are in this meeting elsewhere`
              : t`You are not in the meeting`;
  return (
    <section aria-labelledby="meeting-ended-title" className="mx-auto flex max-w-xl flex-col gap-4">
      <h1
        id="meeting-ended-title"
        ref={focusWhenShown}
        tabIndex={-1}
        className="text-2xl font-bold text-fg outline-none"
      >
        {heading}
      </h1>
      <p role={isLeft ? undefined : 'alert'} className="text-fg">
        {meetingEndText(end)}
      </p>
      {end.reason === 'ROOM_FULL' ? (
        <p className="text-muted">
          <Trans>Everyone it can hold is already in. Try again when someone leaves.</Trans>
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {end.reason === 'CLIENT_TOO_OLD' ? (
          <Button onClick={() => window.location.reload()}>
            <Trans>Reload the page</Trans>
          </Button>
        ) : null}
        {end.reason === 'session' ? (
          <Link to={loginPathFor(role)} className={buttonVariants({ variant: 'primary' })}>
            <Trans>Log in again</Trans>
          </Link>
        ) : null}
        {end.canRetry ? (
          <Button onClick={onJoinAgain}>
            {isLeft ? t`Rejoin` : end.reason === 'REPLACED' ? t`Use this tab instead` : t`Try again`}
          </Button>
        ) : null}
        <Link to={emeetPath(role)} className={buttonVariants({ variant: 'secondary' })}>
          <Trans>Back to EMeet</Trans>
        </Link>
      </div>
    </section>
  );
}
