import { Trans, useLingui } from '@lingui/react/macro';
import { Hand, Lock } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import type { MeetingSession, MeetingSnapshot } from './meeting-session.ts';

/** "Raise hand" / "Lower hand" in the toolbar, for everyone (decision 038). */
export function RaiseHandButton({ session, snapshot }: { session: MeetingSession; snapshot: MeetingSnapshot }) {
  const { t } = useLingui();
  const isRaised = snapshot.you?.hand != null;
  const label = isRaised ? t`Lower hand` : t`Raise hand`;
  return (
    <Button
      variant={isRaised ? 'primary' : 'secondary'}
      size="custom"
      className="min-w-11 px-2.5 py-2.5 text-sm sm:px-3"
      aria-pressed={isRaised}
      disabled={snapshot.phase !== 'joined'}
      onClick={() => session.moderate({ type: 'hand', raised: !isRaised })}
    >
      <Hand className="size-5" aria-hidden="true" />
      <span className="max-sm:sr-only">{label}</span>
    </Button>
  );
}

/** Everyone sees that a teacher locked the room: nobody else can join until it is unlocked. */
export function RoomLockedMark() {
  return (
    <p role="status" className="flex items-center gap-1.5 rounded-md bg-warning-soft px-2 py-1 text-sm text-warning">
      <Lock className="size-4" aria-hidden="true" />
      <Trans>Room locked</Trans>
    </p>
  );
}
