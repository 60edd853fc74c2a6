import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { buttonVariants } from '../../components/ui/button.tsx';
import { meetingQueries } from '../meetings/meetings-api.ts';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { boardPathFor } from './board-paths.ts';

/**
 * "Open the class board" in a meeting's side panel (issue 35): a meeting room belongs to a class
 * (decision 035), found in the caller's list of rooms; the board opens in a new tab, so the
 * meeting goes on. Nothing when the room is not in the list (an old room, not listed any more).
 */
export function MeetingBoardLink() {
  const { t } = useLingui();
  const role = useDashboardRole();
  const roomId = useParams().roomID ?? '';
  const rooms = useQuery({ ...meetingQueries.rooms(), staleTime: 60_000 });
  const room = rooms.data?.find((candidate) => candidate.roomId === roomId);
  if (!room) return null;
  return (
    <p className="px-3 pt-2">
      <Link
        to={boardPathFor(role, room.class._id)}
        target="_blank"
        rel="noopener"
        className={buttonVariants({ variant: 'secondary', size: 'sm' })}
      >
        <ExternalLink className="size-4" aria-hidden="true" />
        {t`Open the class board`}
        <span className="sr-only"> {t`(opens in a new tab)`}</span>
      </Link>
    </p>
  );
}
