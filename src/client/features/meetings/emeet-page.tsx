import { Link as LinkIcon, LogIn, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router';
import { MEETING_LIMITS } from '#shared/meetings';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { inviteLink, meetPath, roomIdFromInput } from './meeting-links.ts';
import { createMeetingRoom, fetchMeetingTicket } from './meetings-api.ts';
import { useCopyInviteLink } from './use-copy-invite-link.ts';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

const focusButtonWhenShown = (element: HTMLButtonElement | null) => element?.focus();

const ROOM_ID_HINT = `${MEETING_LIMITS.roomIdMin} to ${MEETING_LIMITS.roomIdMax} letters, digits, - or _, or paste an invite link.`;

/**
 * /dashboard/{role}/emeet (SPEC §2, §4 Room join): enter a room ID and join; a
 * teacher can also open a new room with a generated ID and copy its invite link.
 * Joining mints a meeting token for this person and room and opens the meeting.
 */
export function Component() {
  const role = useDashboardRole();
  const navigate = useNavigate();
  const [isJoining, setIsJoining] = useState(false);

  const joinRoom = async (roomId: string) => {
    setIsJoining(true);
    try {
      const ticket = await fetchMeetingTicket(roomId);
      await navigate(meetPath(role, roomId, { token: ticket.token, isCameraWanted: true, isMicWanted: true }));
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : 'Could not join the room. Try again.');
      setIsJoining(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-8">
      <PageTitle>EMeet</PageTitle>
      <PageHeader
        title="EMeet"
        description={`Video meetings of your class, browser to browser. Enter a room ID to join${
          role === 'teacher' ? ', or start a new room and invite your students.' : '.'
        }`}
      />
      <JoinRoomForm isJoining={isJoining} onJoin={(roomId) => void joinRoom(roomId)} />
      {role === 'teacher' ? <NewRoom isJoining={isJoining} onJoin={(roomId) => void joinRoom(roomId)} /> : null}
    </div>
  );
}

function JoinRoomForm({ isJoining, onJoin }: { isJoining: boolean; onJoin(roomId: string): void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const headingId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const roomId = roomIdFromInput(value);
    if (!roomId) {
      setError(value.trim() ? `That is not a room ID: use ${ROOM_ID_HINT}` : 'Enter a room ID');
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    setError(undefined);
    onJoin(roomId);
  };

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'p-5')}>
      <h2 id={headingId} className="text-lg font-semibold text-fg">
        Join a room
      </h2>
      <form noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start">
        <TextField
          label="Room ID"
          name="roomId"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
          hint={ROOM_ID_HINT}
          autoComplete="off"
          spellCheck={false}
          className="flex-1"
          required
        />
        <Button type="submit" disabled={isJoining} className="sm:mt-7">
          <LogIn className="size-4" aria-hidden="true" />
          {isJoining ? 'Joining…' : 'Join'}
        </Button>
      </form>
    </section>
  );
}

function NewRoom({ isJoining, onJoin }: { isJoining: boolean; onJoin(roomId: string): void }) {
  const [roomId, setRoomId] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const headingId = useId();
  const linkId = useId();
  const copyInviteLink = useCopyInviteLink(roomId ?? '');

  const create = async () => {
    setIsCreating(true);
    try {
      setRoomId((await createMeetingRoom()).roomId);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : 'Could not create a room. Try again.');
    } finally {
      setIsCreating(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'p-5')}>
      <h2 id={headingId} className="text-lg font-semibold text-fg">
        Start a new meeting
      </h2>
      <p className="mt-1 text-sm text-muted">
        A new room gets an ID nobody can guess: only the people you send the link to can find it.
      </p>
      {roomId ? (
        <div className="mt-4 flex flex-col gap-3">
          <p className="text-fg">
            Your room:{' '}
            <span className="font-mono font-semibold text-fg" data-testid="new-room-id">
              {roomId}
            </span>
          </p>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={linkId} className="text-sm font-medium text-fg">
              Invite link
            </label>
            <input
              id={linkId}
              readOnly
              value={inviteLink(window.location.origin, roomId)}
              onFocus={(event) => event.currentTarget.select()}
              className="rounded-lg border border-line-strong bg-surface-sunken px-3 py-2.5 font-mono text-sm text-fg"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            {/* The focus moves to the new room's first action, so keyboard users go on from there. */}
            <Button ref={focusButtonWhenShown} disabled={isJoining} onClick={() => onJoin(roomId)}>
              <LogIn className="size-4" aria-hidden="true" />
              {isJoining ? 'Joining…' : 'Join this room'}
            </Button>
            <Button variant="secondary" onClick={() => void copyInviteLink()}>
              <LinkIcon className="size-4" aria-hidden="true" />
              Copy invite link
            </Button>
          </div>
        </div>
      ) : (
        <Button className="mt-4" disabled={isCreating} onClick={() => void create()}>
          <Plus className="size-4" aria-hidden="true" />
          {isCreating ? 'Creating…' : 'Create a room'}
        </Button>
      )}
    </section>
  );
}
