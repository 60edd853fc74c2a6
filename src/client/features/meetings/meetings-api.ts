import { t } from '@lingui/core/macro';
import { queryOptions } from '@tanstack/react-query';
import { createMeetingRoom as createRoom, issueMeetingToken, listMeetingRooms } from '#shared/contract/meetings';
import { call, type ApiError } from '../../lib/api.ts';

/** A new room of one of the teacher's classes, with a generated, hard-to-guess ID (decision 035). */
export const createMeetingRoom = async (classId: string) => (await call(createRoom, { body: { classId } })).data;

/** A meeting token for the logged-in user and this room, with the ICE servers and room size. */
export const fetchMeetingTicket = async (roomId: string) =>
  (await call(issueMeetingToken, { params: { roomId } })).data;

export const meetingQueries = {
  /** The rooms of the caller's classes, newest first. */
  rooms: () =>
    queryOptions({
      queryKey: ['meetings', 'rooms'],
      queryFn: async ({ signal }) => (await call(listMeetingRooms, {}, { signal })).data,
    }),
};

/** What a refused meeting token means for a room (decision 035), else the usual text of the failure. */
export function meetingRefusalText(error: ApiError): string {
  if (error.code === 'FORBIDDEN') {
    return t`This room belongs to a class you are not in. Join a room of your own classes.`;
  }
  if (error.code === 'NOT_FOUND') {
    return t`No room has this ID. Check it, or join a room of your classes from the list.`;
  }
  if (error.code === 'CLASS_ARCHIVED') return t`This room's class is archived: its rooms are closed.`;
  return error.message;
}
