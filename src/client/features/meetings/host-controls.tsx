import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const hands = raisedHands(snapshot.remotes);
  return (
    <div className="flex flex-col gap-2 border-b border-line px-3 py-2">
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => session.moderate({ type: 'mute-all' })}>
          <MicOff className="size-4" aria-hidden="true" />
          <Trans>Mute everyone</Trans>
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
          <Trans>Lock room</Trans>
        </Button>
      </div>
      {hands.length > 0 ? (
        <section aria-label={t`Raised hands`} className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold text-fg">
            <Trans>Raised hands</Trans>
          </h3>
          <ol className="list-decimal ps-5 text-sm text-fg">
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
            <Trans>Lower all hands</Trans>
          </Button>
        </section>
      ) : null}
    </div>
  );
}

/** A host's buttons for one other participant; none for another host (hosts are not moderated). */
export function PersonActions({ session, person }: { session: MeetingSession; person: RemoteParticipant }) {
  const [isConfirming, setIsConfirming] = useState(false);
  const { t } = useLingui();
  if (person.host) return null;
  const { name } = person;
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label={t`Actions for ${name}`}>
      <Button
        variant="ghost"
        size="sm"
        disabled={!person.media.mic}
        aria-label={t`Mute ${name}`}
        onClick={() => session.moderate({ type: 'mute', participantId: person.id })}
      >
        <MicOff className="size-4" aria-hidden="true" />
        <Trans>Mute</Trans>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={!person.media.camera}
        aria-label={t`Stop camera of ${name}`}
        onClick={() => session.moderate({ type: 'stop-camera', participantId: person.id })}
      >
        <VideoOff className="size-4" aria-hidden="true" />
        <Trans>Stop camera</Trans>
      </Button>
      <Button variant="ghost" size="sm" aria-label={t`Remove ${name}`} onClick={() => setIsConfirming(true)}>
        <UserX className="size-4" aria-hidden="true" />
        <Trans>Remove</Trans>
      </Button>
      {isConfirming ? (
        <ConfirmDialog
          title={t`Remove ${name}?`}
          description={t`They leave the meeting at once and cannot join this room again for 4 hours.`}
          confirmLabel={t`Remove`}
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
      <span className="text-xs">
        <Trans>Hand raised</Trans>
      </span>
    </span>
  );
}
