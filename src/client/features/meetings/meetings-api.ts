import { createMeetingRoom as createRoom, issueMeetingToken } from '#shared/contract/meetings';
import { call } from '../../lib/api.ts';

/** A new room with a generated, hard-to-guess ID (teachers). */
export const createMeetingRoom = async () => (await call(createRoom)).data;

/** A meeting token for the logged-in user and this room, with the ICE servers and room size. */
export const fetchMeetingTicket = async (roomId: string) =>
  (await call(issueMeetingToken, { params: { roomId } })).data;
