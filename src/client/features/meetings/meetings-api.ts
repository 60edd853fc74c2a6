import type { CreatedMeetingRoom, MeetingTicket } from '#shared/meetings';
import { apiPost } from '../../lib/api.ts';

/** A new room with a generated, hard-to-guess ID (teachers). */
export const createMeetingRoom = async () => (await apiPost<CreatedMeetingRoom>('/api/meetings')).data;

/** A meeting token for the logged-in user and this room, with the ICE servers and room size. */
export const fetchMeetingTicket = async (roomId: string) =>
  (await apiPost<MeetingTicket>(`/api/meetings/${encodeURIComponent(roomId)}/token`)).data;
