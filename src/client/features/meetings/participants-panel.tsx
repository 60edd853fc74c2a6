import { Mic, MicOff, MonitorUp, Video, VideoOff } from 'lucide-react';
import { useId } from 'react';
import type { MediaState } from '#shared/meetings';
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
  const headingId = useId();
  const people = [
    {
      id: 'you',
      name: `${yourName} (you)`,
      role: snapshot.you?.role,
      media: snapshot.local.media,
      hand: snapshot.you?.hand ?? null,
    },
    ...snapshot.remotes,
  ];
  const isHost = snapshot.you?.host === true;
  return (
    <section aria-labelledby={headingId} className="flex min-h-0 flex-1 flex-col">
      <PanelHeader id={headingId} title="Participants" onClose={onClose} />
      <p className="px-3 pt-2 text-sm text-muted">
        {people.length} in the room{snapshot.roomSize ? ` (at most ${snapshot.roomSize})` : ''}
      </p>
      {isHost ? <HostControls session={session} snapshot={snapshot} /> : null}
      <ul className="flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto p-3">
        {people.map((person) => (
          <li
            key={person.id}
            className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 rounded-md px-2 py-1.5 hover:bg-surface-sunken"
          >
            <span className="min-w-0 truncate text-fg">
              {person.name}
              {person.role === 'teacher' ? <span className="ml-2 text-xs text-muted">Teacher</span> : null}
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
  const iconClass = 'size-4';
  return (
    <span className="flex shrink-0 items-center gap-1.5 text-muted">
      {media.screen ? (
        <>
          <MonitorUp className={iconClass} aria-hidden="true" />
          <span className="sr-only">sharing the screen,</span>
        </>
      ) : null}
      {media.camera ? (
        <Video className={iconClass} aria-hidden="true" />
      ) : (
        <VideoOff className={`${iconClass} text-danger`} aria-hidden="true" />
      )}
      <span className="sr-only">{media.camera ? 'camera on,' : 'camera off,'}</span>
      {media.mic ? (
        <Mic className={iconClass} aria-hidden="true" />
      ) : (
        <MicOff className={`${iconClass} text-danger`} aria-hidden="true" />
      )}
      <span className="sr-only">{media.mic ? 'microphone on' : 'microphone off'}</span>
    </span>
  );
}
