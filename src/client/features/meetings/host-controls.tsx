import { Hand, Lock, LockOpen, MicOff, UserX, VideoOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import type { MeetingSession, MeetingSnapshot, RemoteParticipant } from './meeting-session.ts';
import { raisedHands } from './raised-hands.ts';

/**
 * What a teacher of the room's class sees in the participant list (decision 038): the raised
 * hands in order with "Lower all hands", "Mute everyone" and the room's lock.
 */
export function HostControls({ session, snapshot }: { session: MeetingSession; snapshot: MeetingSnapshot }) {
  const hands = raisedHands(snapshot.remotes);
  return (
    <div className="flex flex-col gap-2 border-b border-line px-3 py-2">
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => session.moderate({ type: 'mute-all' })}>
          <MicOff className="size-4" aria-hidden="true" />
          Mute everyone
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-pressed={snapshot.isLocked}
          onClick={() => session.moderate({ type: 'lock', locked: !snapshot.isLocked })}
        >
          {snapshot.isLocked ? (
            <Lock className="size-4" aria-hidden="true" />
          ) : (
            <LockOpen className="size-4" aria-hidden="true" />
          )}
          Lock room
        </Button>
      </div>
      {hands.length > 0 ? (
        <section aria-label="Raised hands" className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold text-fg">Raised hands</h3>
          <ol className="list-decimal pl-5 text-sm text-fg">
            {hands.map((person) => (
              <li key={person.id}>{person.name}</li>
            ))}
          </ol>
          <Button
            variant="secondary"
            size="sm"
            className="self-start"
            onClick={() => session.moderate({ type: 'lower-hands' })}
          >
            <Hand className="size-4" aria-hidden="true" />
            Lower all hands
          </Button>
        </section>
      ) : null}
    </div>
  );
}

/** A host's buttons for one other participant; none for another host (hosts are not moderated). */
export function PersonActions({ session, person }: { session: MeetingSession; person: RemoteParticipant }) {
  const [isConfirming, setIsConfirming] = useState(false);
  if (person.host) return null;
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label={`Actions for ${person.name}`}>
      <Button
        variant="ghost"
        size="sm"
        disabled={!person.media.mic}
        aria-label={`Mute ${person.name}`}
        onClick={() => session.moderate({ type: 'mute', participantId: person.id })}
      >
        <MicOff className="size-4" aria-hidden="true" />
        Mute
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={!person.media.camera}
        aria-label={`Stop camera of ${person.name}`}
        onClick={() => session.moderate({ type: 'stop-camera', participantId: person.id })}
      >
        <VideoOff className="size-4" aria-hidden="true" />
        Stop camera
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Remove ${person.name}`} onClick={() => setIsConfirming(true)}>
        <UserX className="size-4" aria-hidden="true" />
        Remove
      </Button>
      {isConfirming ? (
        <ConfirmDialog
          title={`Remove ${person.name}?`}
          description="They leave the meeting at once and cannot join this room again for 4 hours."
          confirmLabel="Remove"
          widthClassName="w-[min(28rem,calc(100%-2rem))]"
          onConfirm={() => session.moderate({ type: 'remove', participantId: person.id })}
          onClose={() => setIsConfirming(false)}
        />
      ) : null}
    </div>
  );
}

/** "Hand raised", in words and an icon, for a tile or a list row. */
export function HandMark({ className = '' }: { className?: string }) {
  return (
    <span className={`flex items-center gap-1 ${className}`}>
      <Hand className="size-4" aria-hidden="true" />
      <span className="text-xs">Hand raised</span>
    </span>
  );
}
