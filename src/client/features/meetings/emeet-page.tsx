import { Trans, useLingui } from '@lingui/react/macro';
import { Link as LinkIcon, LogIn, Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { MEETING_LIMITS } from '#shared/meetings';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { codeInputProps, TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { inviteLink, meetPath, roomIdFromInput } from './meeting-links.ts';
import { createMeetingRoom, fetchMeetingTicket, meetingQueries, meetingRefusalText } from './meetings-api.ts';
import { ClassPicker } from '../../components/class-picker.tsx';
import { classQueries } from '../classes/classes-queries.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useCopyInviteLink } from './use-copy-invite-link.ts';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

const focusButtonWhenShown = (element: HTMLButtonElement | null) => element?.focus();

/**
 * /dashboard/{role}/emeet (SPEC §2, §4 Room join): the rooms of one's classes, joined with a
 * click, or a room ID typed in; a teacher also opens a new room for one of their classes and
 * copies its invite link (decision 035). Joining mints a meeting token for this person and
 * room (the server refuses a room of another class) and opens the meeting.
 */
export function Component() {
  const role = useDashboardRole();
  const navigate = useNavigate();
  const [isJoining, setIsJoining] = useState(false);
  const { t } = useLingui();

  const joinRoom = async (roomId: string) => {
    setIsJoining(true);
    try {
      const ticket = await fetchMeetingTicket(roomId);
      await navigate(meetPath(role, roomId, { token: ticket.token, isCameraWanted: true, isMicWanted: true }));
    } catch (error) {
      toast.error(error instanceof ApiError ? meetingRefusalText(error) : t`Could not join the room. Try again.`);
      setIsJoining(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-8">
      <PageTitle>EMeet</PageTitle>
      <PageHeader
        title="EMeet"
        description={
          role === 'teacher'
            ? t`Video meetings of your classes, with no outside service. Join a room of your classes, or start a new room for a class and invite its students.`
            : t`Video meetings of your classes, with no outside service. Join a room of your classes.`
        }
      />
      {role === 'teacher' ? <NewRoom isJoining={isJoining} onJoin={(roomId) => void joinRoom(roomId)} /> : null}
      <ClassRooms isJoining={isJoining} onJoin={(roomId) => void joinRoom(roomId)} />
      <JoinRoomForm isJoining={isJoining} onJoin={(roomId) => void joinRoom(roomId)} />
    </div>
  );
}

function JoinRoomForm({ isJoining, onJoin }: { isJoining: boolean; onJoin(roomId: string): void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const headingId = useId();
  const { t } = useLingui();
  const min = formatNumber(MEETING_LIMITS.roomIdMin);
  const max = formatNumber(MEETING_LIMITS.roomIdMax);
  const hint = t`${min} to ${max} letters, digits, - or _, or paste an invite link.`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const roomId = roomIdFromInput(value);
    if (!roomId) {
      setError(value.trim() ? t`That is not a room ID: use ${hint}` : t`Enter a room ID`);
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    setError(undefined);
    onJoin(roomId);
  };

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'p-5')}>
      <h2 id={headingId} className="text-lg font-semibold text-fg">
        <Trans>Join a room by its ID</Trans>
      </h2>
      <form noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start">
        <TextField
          label={t`Room ID`}
          name="roomId"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={error}
          hint={hint}
          autoComplete="off"
          {...codeInputProps}
          className="flex-1"
          required
        />
        <Button type="submit" disabled={isJoining} className="sm:mt-7">
          <LogIn className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          {isJoining ? t`Joining…` : t`Join`}
        </Button>
      </form>
    </section>
  );
}

function NewRoom({ isJoining, onJoin }: { isJoining: boolean; onJoin(roomId: string): void }) {
  const [roomId, setRoomId] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);
  const [classError, setClassError] = useState<string | undefined>();
  const queryClient = useQueryClient();
  // The picker says itself when there is no class; without one there is nothing to create.
  const hasActiveClass = useQuery({ ...classQueries.mine(), select: (taught) => taught.some((c) => !c.isArchived) });
  const headingId = useId();
  const linkId = useId();
  const copyInviteLink = useCopyInviteLink(roomId ?? '');
  const { t } = useLingui();

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const classId = new FormData(form).get('classId');
    if (typeof classId !== 'string' || classId === '') {
      setClassError(t`Choose one of your classes`);
      form.querySelector('select')?.focus();
      return;
    }
    setClassError(undefined);
    setIsCreating(true);
    try {
      setRoomId((await createMeetingRoom(classId)).roomId);
      void queryClient.invalidateQueries({ queryKey: meetingQueries.rooms().queryKey });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : t`Could not create a room. Try again.`);
    } finally {
      setIsCreating(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'p-5')}>
      <h2 id={headingId} className="text-lg font-semibold text-fg">
        <Trans>Start a new meeting</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          A room belongs to one of your classes: its teachers and students see it here and join it; nobody else can,
          even with the link.
        </Trans>
      </p>
      {roomId ? (
        <div className="mt-4 flex flex-col gap-3">
          <p className="text-fg">
            <Trans>
              Your room:{' '}
              <bdi dir="ltr" className="font-mono font-semibold text-fg" data-testid="new-room-id">
                {roomId}
              </bdi>
            </Trans>
          </p>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={linkId} className="text-sm font-medium text-fg">
              <Trans>Invite link</Trans>
            </label>
            <input
              id={linkId}
              readOnly
              dir="ltr"
              value={inviteLink(window.location.origin, roomId)}
              onFocus={(event) => event.currentTarget.select()}
              className="rounded-lg border border-line-strong bg-surface-sunken px-3 py-2.5 font-mono text-sm text-fg"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            {/* The focus moves to the new room's first action, so keyboard users go on from there. */}
            <Button ref={focusButtonWhenShown} disabled={isJoining} onClick={() => onJoin(roomId)}>
              <LogIn className="size-4 rtl:-scale-x-100" aria-hidden="true" />
              {isJoining ? t`Joining…` : t`Join this room`}
            </Button>
            <Button variant="secondary" onClick={() => void copyInviteLink()}>
              <LinkIcon className="size-4" aria-hidden="true" />
              <Trans>Copy invite link</Trans>
            </Button>
          </div>
        </div>
      ) : (
        <form noValidate onSubmit={(event) => void create(event)} className="mt-4 flex flex-col gap-4">
          <ClassPicker error={classError} />
          {hasActiveClass.data ? (
            <Button type="submit" disabled={isCreating} className="self-start">
              <Plus className="size-4" aria-hidden="true" />
              {isCreating ? t`Creating…` : t`Create a room`}
            </Button>
          ) : null}
        </form>
      )}
    </section>
  );
}

/** The rooms of the caller's classes (newest first), each joined with one click. */
function ClassRooms({ isJoining, onJoin }: { isJoining: boolean; onJoin(roomId: string): void }) {
  const rooms = useQuery(meetingQueries.rooms());
  const headingId = useId();
  const { t } = useLingui();
  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'p-5')}>
      <h2 id={headingId} className="text-lg font-semibold text-fg">
        <Trans>Rooms of your classes</Trans>
      </h2>
      {rooms.isPending ? (
        <p className="mt-3 text-sm text-muted">
          <Trans>Loading the rooms…</Trans>
        </p>
      ) : rooms.isError ? (
        <p role="alert" className="mt-3 text-sm text-fg">
          <Trans>The rooms could not be loaded. Reload the page to try again.</Trans>
        </p>
      ) : rooms.data.length === 0 ? (
        <p className="mt-3 text-sm text-muted">
          <Trans>No room has been opened for your classes yet.</Trans>
        </p>
      ) : (
        <ul className="mt-3 flex flex-col divide-y divide-line" aria-labelledby={headingId}>
          {rooms.data.map((room) => {
            const { roomId } = room;
            const classTitle = room.class.name;
            const teacherName = room.createdBy?.name;
            const opened = formatDateTime(room.createdAt);
            return (
              <li key={roomId} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-semibold text-fg">{classTitle}</p>
                  <p className="text-sm text-muted">
                    {teacherName ? (
                      <Trans>
                        Opened by <bdi>{teacherName}</bdi>, <time dateTime={room.createdAt}>{opened}</time>
                        <span className="sr-only">
                          , room <bdi>{roomId}</bdi>
                        </span>
                      </Trans>
                    ) : (
                      <Trans>
                        Opened by a former teacher, <time dateTime={room.createdAt}>{opened}</time>
                        <span className="sr-only">
                          , room <bdi>{roomId}</bdi>
                        </span>
                      </Trans>
                    )}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  disabled={isJoining}
                  onClick={() => onJoin(roomId)}
                  aria-label={t`Join the room of ${classTitle}, opened ${opened}`}
                >
                  <LogIn className="size-4 rtl:-scale-x-100" aria-hidden="true" />
                  <Trans>Join</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
