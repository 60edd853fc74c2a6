import { z } from 'zod/mini';
import { USER_ROLES } from '../constants.ts';
import {
  CLOSE_CODES,
  clientMessageSchema,
  iceCandidateSchema,
  iceServerSchema,
  joinMessageSchema,
  mediaStateSchema,
  MEETING_SOCKET_PATH,
  meetingRoomSchema,
  meetingTicketSchema,
  newMeetingRoomSchema,
  PROTOCOL_VERSION,
  roomIdParamsSchema,
  type ServerMessage,
  MEETING_ERRORS,
  type MeetingErrorCode,
} from '../meetings.ts';
import { defineEndpoint } from './endpoint.ts';

/** Meeting rooms (decision 013): a room, a meeting token, the signalling socket. */

export const createMeetingRoom = defineEndpoint({
  method: 'POST',
  path: '/api/meetings',
  summary: 'A new meeting room with a generated, hard-to-guess id, for an active class the caller teaches',
  body: newMeetingRoomSchema,
  response: meetingRoomSchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'CLASS_ARCHIVED'],
});

export const listMeetingRooms = defineEndpoint({
  method: 'GET',
  path: '/api/meetings',
  summary: "The rooms of the caller's active classes (taught, or for a student belonged to), newest first",
  response: z.array(meetingRoomSchema),
});

export const issueMeetingToken = defineEndpoint({
  method: 'POST',
  path: '/api/meetings/:roomId/token',
  summary:
    "A short-lived meeting token for a room of a class the caller teaches or belongs to, with the ICE servers and the room's size",
  params: roomIdParamsSchema,
  response: meetingTicketSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'CLASS_ARCHIVED'],
});

const participantSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  role: z.enum(USER_ROLES),
  media: mediaStateSchema,
  host: z.boolean(),
  hand: z.nullable(z.number()),
});

/** Server → client messages, as documentation; `ServerMessage` is held equal to it below. */
const serverMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('welcome'),
    protocolVersion: z.literal(PROTOCOL_VERSION),
    roomId: z.string(),
    you: participantSchema,
    participants: z.array(participantSchema),
    iceServers: z.array(iceServerSchema),
    roomSize: z.number(),
    locked: z.boolean(),
    topology: z.enum(['mesh', 'sfu']),
  }),
  z.strictObject({ type: z.literal('participant-joined'), participant: participantSchema }),
  z.strictObject({
    type: z.literal('participant-left'),
    participantId: z.string(),
    reason: z.enum(['left', 'replaced', 'timeout', 'removed']),
  }),
  z.strictObject({ type: z.literal('offer'), from: z.string(), sdp: z.string() }),
  z.strictObject({ type: z.literal('answer'), from: z.string(), sdp: z.string() }),
  z.strictObject({ type: z.literal('candidate'), from: z.string(), candidate: iceCandidateSchema }),
  z.strictObject({ type: z.literal('chat'), from: z.string(), name: z.string(), text: z.string(), sentAt: z.string() }),
  z.strictObject({ type: z.literal('media-state'), from: z.string(), state: mediaStateSchema }),
  z.strictObject({ type: z.literal('moderated'), action: z.enum(['mute', 'stop-camera']), by: z.string() }),
  z.strictObject({ type: z.literal('hand'), participantId: z.string(), hand: z.nullable(z.number()) }),
  z.strictObject({ type: z.literal('hands-lowered'), by: z.string() }),
  z.strictObject({ type: z.literal('room-lock'), locked: z.boolean(), by: z.string() }),
  z.strictObject({ type: z.literal('sfu-published'), sdp: z.string() }),
  z.strictObject({
    type: z.literal('sfu-offer'),
    sdp: z.string(),
    streams: z.array(
      z.strictObject({ mid: z.string(), participantId: z.string(), slot: z.enum(['audio', 'camera', 'screen']) }),
    ),
    revision: z.number(),
  }),
  z.strictObject({ type: z.literal('sfu-moving') }),
  z.strictObject({ type: z.literal('sfu-moved') }),
  z.strictObject({
    type: z.literal('error'),
    code: z.enum(Object.keys(MEETING_ERRORS) as [MeetingErrorCode, ...MeetingErrorCode[]]),
    message: z.string(),
  }),
]);

// The protocol's type and this description must not drift apart: both directions assignable.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const isServerMessageDescribed: Same<z.infer<typeof serverMessageSchema>, ServerMessage> = true;
void isServerMessageDescribed;

export const meetingSocket = defineEndpoint({
  method: 'GET',
  path: MEETING_SOCKET_PATH,
  summary: 'The signalling WebSocket of a meeting room (protocol version 2)',
  description:
    'Browsers cannot set headers on a WebSocket: the meeting token goes in the query. The upgrade is ' +
    'always accepted and every refusal is a close code with its reason; the first message must be ' +
    '`join` within the join time-out. A plain HTTP request is answered 426.',
  query: z.object({ token: z.string().check(z.describe('The meeting token from POST /api/meetings/{roomId}/token')) }),
  response: {
    form: 'websocket',
    clientMessages: z.union([joinMessageSchema, clientMessageSchema]),
    serverMessages: serverMessageSchema,
    closeCodes: CLOSE_CODES,
  },
  errors: ['UPGRADE_REQUIRED'],
});
