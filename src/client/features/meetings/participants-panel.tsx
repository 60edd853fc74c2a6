import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Mic, MicOff, MonitorUp, Video, VideoOff } from 'lucide-react';
import { useId } from 'react';
import type { MediaState } from '#shared/meetings';
import { formatNumber } from '../../lib/format.ts';
import { MeetingBoardLink } from '../class-boards/meeting-board-link.tsx';
import { PanelHeader } from './chat-panel.tsx';
import { HandMark, HostControls, PersonActions } from './host-controls.tsx';
import type { MeetingSession, MeetingSnapshot } from './meeting-session.ts';

/** Everyone in the room, with what they share, and how full the room is. */
export function ParticipantsPanel({
  session,
  snapshot,
  yourName,
  onClose,
}: {
  session: MeetingSession;
  snapshot: MeetingSnapshot;
  yourName: string;
  onClose(): void;
}) {
  const { t } = useLingui();
  const headingId = useId();
  // One message with the tile's "{name} (you)".
  const youName = (name: string) => t`${name} (you)`;
  const people = [
    {
      id: 'you',
      name: youName(yourName),
      role: snapshot.you?.role,
      media: snapshot.local.media,
      hand: snapshot.you?.hand ?? null,
    },
    ...snapshot.remotes,
  ];
  const isHost = snapshot.you?.host === true;
  const count = people.length;
  const roomSize = snapshot.roomSize ? formatNumber(snapshot.roomSize) : null;
  return (
    <section aria-labelledby={headingId} className="flex min-h-0 flex-1 flex-col">
      <PanelHeader id={headingId} title={t`Participants`} closeLabel={t`Close participants`} onClose={onClose} />
      <p className="px-3 pt-2 text-sm text-muted">
        {roomSize
          ? t`${plural(count, { one: '# in the room', other: '# in the room' })} (at most ${roomSize})`
          : plural(count, { one: '# in the room', other: '# in the room' })}
      </p>
      <MeetingBoardLink />
      {isHost ? <HostControls session={session} snapshot={snapshot} /> : null}
      <ul className="flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto p-3">
        {people.map((person) => (
          <li
            key={person.id}
            className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 rounded-md px-2 py-1.5 hover:bg-surface-sunken"
          >
            <span className="min-w-0 truncate text-fg">
              <bdi>{person.name}</bdi>
              {person.role === 'teacher' ? (
                <span className="ms-2 text-xs text-muted">
                  <Trans>Teacher</Trans>
                </span>
              ) : null}
            </span>
            {person.hand !== null ? <HandMark className="text-warning" /> : null}
            <MediaMarks media={person.media} />
            {isHost && 'link' in person ? <PersonActions session={session} person={person} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function MediaMarks({ media }: { media: MediaState }) {
  const { t } = useLingui();
  const iconClass = 'size-4';
  return (
    <span className="flex shrink-0 items-center gap-1.5 text-muted">
      {media.screen ? (
        <>
          <MonitorUp className={iconClass} aria-hidden="true" />
          <span className="sr-only">
            <Trans>sharing the screen,</Trans>
          </span>
        </>
      ) : null}
      {media.camera ? (
        <Video className={iconClass} aria-hidden="true" />
      ) : (
        <VideoOff className={`${iconClass} text-danger`} aria-hidden="true" />
      )}
      <span className="sr-only">{media.camera ? t`camera on,` : t`camera off,`}</span>
      {media.mic ? (
        <Mic className={iconClass} aria-hidden="true" />
      ) : (
        <MicOff className={`${iconClass} text-danger`} aria-hidden="true" />
      )}
      <span className="sr-only">{media.mic ? t`microphone on` : t`microphone off`}</span>
    </span>
  );
}
