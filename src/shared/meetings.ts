import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { USER_ROLES, type UserRole } from './constants.ts';
import { bodyObject, hasForbiddenCharacters } from './fields.ts';
import { FIELD_LIMITS } from './limits.ts';
import {
  closeReasonIn,
  PARTICIPANT_ID_PATTERN,
  ROOM_CLOSE_CODES,
  ROOM_RECONNECT_REASONS,
  type RoomLeaveReason,
} from './rooms.ts';

/**
 * Meeting rooms (issue 7): the signalling protocol spoken over the WebSocket
 * GET /api/meetings/ws?token=…, the meeting-token calls, limits and close codes.
 * Media flows browser to browser (the mesh), or through the Janus SFU when the server has one
 * (decision 037): then each browser publishes once and our server negotiates with Janus for it.
 */

/** Bumped on any incompatible change; the server closes other versions with CLIENT_TOO_OLD. */
export const PROTOCOL_VERSION = 2;

/** The signalling WebSocket, on the app's own origin; the meeting token goes in `?token=`. */
export const MEETING_SOCKET_PATH = '/api/meetings/ws';

export const MEETING_LIMITS = {
  /** A room ID a person types or a link carries: 6 to 64 letters, digits, - or _. */
  roomIdMin: 6,
  roomIdMax: 64,
  /** Built-in mesh default (MEETING_ROOM_SIZE); every browser sends its media to every other. */
  defaultRoomSize: 8,
  minRoomSize: 2,
  /** With Janus (JANUS_URL), where each browser sends once. */
  maxRoomSize: 50,
  /** Without Janus: past this, each browser would send its video to 16 others and more. */
  maxMeshRoomSize: 16,
  /** One WebSocket message, in bytes (an SDP offer is 3–15 KB). */
  messageMaxBytes: 64 * 1024,
  /** Sustained messages per second per socket, and the burst allowed on top (ICE candidates come in bursts). */
  messagesPerSecond: 50,
  messageBurst: 200,
  chatMaxLength: 1000,
  /** Chat lines per socket: a burst, then one every two seconds. Above it a line is refused, the socket stays. */
  chatBurst: 5,
  chatPerSecond: 0.5,
  /** Hand raises and lowers per socket, on the same terms: each one is on every screen in the room. */
  handBurst: 4,
  handPerSecond: 0.5,
  /** After the socket opens, `join` must arrive within this time. */
  joinTimeoutMs: 10_000,
  /** GET /api/meetings: the newest rooms of the caller's classes, at most this many. */
  listedRooms: 50,
  /** A meeting token must be used to join within this time; the socket stays open after. */
  tokenLifetimeSeconds: 10 * 60,
  /** How long a person a teacher removed stays out of that room, whatever token they bring (decision 038). */
  removedForSeconds: 4 * 60 * 60,
} as const;

// ---------------------------------------------------------------------------------------------
// Room IDs

const ROOM_ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${MEETING_LIMITS.roomIdMin},${MEETING_LIMITS.roomIdMax}}$`);

/** A room ID typed by a person or read from a link (surrounding spaces dropped). */
export const roomIdSchema = z.string().check(z.trim(), z.regex(ROOM_ID_PATTERN));

/** Generated room IDs: five groups of four lowercase letters or digits (about 103 random bits). */
export const GENERATED_ROOM_ID = {
  alphabet: 'abcdefghijklmnopqrstuvwxyz0123456789',
  groups: 5,
  groupLength: 4,
} as const;

export const isRoomId = (value: string) => ROOM_ID_PATTERN.test(value);

export const roomIdParamsSchema = z.object({ roomId: roomIdSchema });

// ---------------------------------------------------------------------------------------------
// Meeting tokens (POST /api/meetings, POST /api/meetings/{roomId}/token)

/** RTCIceServer as the browser takes it: STUN/TURN URLs and, for TURN, the credentials. */
const iceUrlSchema = z.string().check(z.maxLength(512), z.regex(/^(stun|stuns|turn|turns):[^\s]+$/));

export const iceServerSchema = z
  .strictObject({
    urls: z.union([iceUrlSchema, z.array(iceUrlSchema).check(z.minLength(1), z.maxLength(10))]),
    username: z.optional(z.string().check(z.maxLength(512))),
    credential: z.optional(z.string().check(z.maxLength(512))),
  })
  .check(
    z.refine(
      (server) =>
        ![server.urls].flat().some((url) => url.startsWith('turn')) ||
        (server.username !== undefined && server.credential !== undefined),
      { params: fieldCode('TURN_CREDENTIALS_MISSING') },
    ),
  );
export type IceServer = z.infer<typeof iceServerSchema>;

export const iceServersSchema = z.array(iceServerSchema).check(z.maxLength(20));

/** POST /api/meetings (teachers): a new, hard-to-guess room for one of the caller's active classes. */
export const newMeetingRoomSchema = bodyObject({ classId: z.uuid() });
export type NewMeetingRoom = z.infer<typeof newMeetingRoomSchema>;

/** A room of a class (decision 035), as the meetings screen lists it. */
export const meetingRoomSchema = z.strictObject({
  roomId: z.string(),
  class: z.strictObject({ _id: z.string(), name: z.string() }),
  /** The teacher who opened it; null once their account is gone. */
  createdBy: z.nullable(z.strictObject({ _id: z.string(), name: z.string() })),
  createdAt: z.iso.datetime(),
});
export type MeetingRoom = z.infer<typeof meetingRoomSchema>;

/** POST /api/meetings/{roomId}/token: what the meeting screen needs to connect. */
export const meetingTicketSchema = z.strictObject({
  roomId: z.string(),
  /** Passed as ?token= to the WebSocket; join before expiresAt. */
  token: z.string(),
  expiresAt: z.iso.datetime(),
  iceServers: z.array(iceServerSchema),
  roomSize: z.int().check(z.gte(2)),
});
export type MeetingTicket = z.infer<typeof meetingTicketSchema>;

/** What a meeting token proves (signed by the server; never a session token). */
export type MeetingTokenClaims = {
  /** The user's id. */
  sub: string;
  role: UserRole;
  /** Display name, read from the database when the token was minted. */
  name: string;
  /** The only room this token opens. */
  room: string;
  /**
   * The session version of the login that minted it (decision 017): a password change or
   * "sign out of all devices" closes the meeting too.
   */
  sv: number;
  /** A teacher of the room's class (owner or co-teacher): may moderate it (decision 038). */
  host: boolean;
};

// ---------------------------------------------------------------------------------------------
// Messages

/** Participant ids are per connection (a reconnect is a new participant); opaque. */
export const participantIdSchema = z.string().check(z.regex(PARTICIPANT_ID_PATTERN));

export const mediaStateSchema = z.strictObject({ mic: z.boolean(), camera: z.boolean(), screen: z.boolean() });
export type MediaState = z.infer<typeof mediaStateSchema>;

const sdpSchema = z.string().check(z.minLength(1), z.maxLength(MEETING_LIMITS.messageMaxBytes));

/** RTCIceCandidateInit; an empty `candidate` is the end-of-candidates marker. */
export const iceCandidateSchema = z.strictObject({
  candidate: z.string().check(z.maxLength(2048)),
  sdpMid: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
  sdpMLineIndex: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(1024)))),
  usernameFragment: z.optional(z.nullable(z.string().check(z.maxLength(256)))),
});
export type IceCandidate = z.infer<typeof iceCandidateSchema>;

export const chatTextSchema = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(MEETING_LIMITS.chatMaxLength),
  // Tabs and line breaks are allowed.
  z.refine((text) => !hasForbiddenCharacters(text), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
);

/**
 * The first message on a socket. Only `type` and `protocolVersion` are read
 * before the version check, so an older client with another shape is told
 * CLIENT_TOO_OLD rather than BAD_MESSAGE. The name and role come from the token.
 */
export const joinVersionSchema = z.object({ type: z.literal('join'), protocolVersion: z.number() });

export const joinMessageSchema = z.strictObject({
  type: z.literal('join'),
  protocolVersion: z.literal(PROTOCOL_VERSION),
  /** Must be the token's room (the page's meetingId): a token opens one room only. */
  roomId: roomIdSchema,
  media: mediaStateSchema,
});

/**
 * Host actions (decision 038); `hand` is anyone's own. The server refuses a non-host's
 * moderation with `error` and changes nothing.
 */
const moderationMessageSchemas = [
  z.strictObject({ type: z.literal('mute'), participantId: participantIdSchema }),
  z.strictObject({ type: z.literal('mute-all') }),
  z.strictObject({ type: z.literal('stop-camera'), participantId: participantIdSchema }),
  z.strictObject({ type: z.literal('remove'), participantId: participantIdSchema }),
  z.strictObject({ type: z.literal('lock'), locked: z.boolean() }),
  z.strictObject({ type: z.literal('hand'), raised: z.boolean() }),
  z.strictObject({ type: z.literal('lower-hands') }),
] as const;
/** How media flows in a room: browser to browser, or through the SFU (decision 037). */
export type MediaTopology = 'mesh' | 'sfu';

/** What a participant sends, one transceiver each, and the subscriber's view of a stream. */
export const MEDIA_SLOTS = ['audio', 'camera', 'screen'] as const;
export type MediaSlot = (typeof MEDIA_SLOTS)[number];
/**
 * The simulcast layers of a camera an SFU room forwards (quarter, half, full size; decision
 * 037): the page asks for the one its tiles need, and a weak link gets the lowest.
 */
export const CAMERA_LAYERS = ['low', 'medium', 'high'] as const;
export type CameraLayer = (typeof CAMERA_LAYERS)[number];

const midSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,16}$/));

/** Which of the publisher's transceivers carries which slot. */
export const publishedSlotsSchema = z.strictObject({ audio: midSchema, camera: midSchema, screen: midSchema });

/** Client → server after `welcome`. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  // SFU rooms: our one publishing connection (an offer), the answer to the subscription's offer,
  // ICE candidates of either, and whose camera is on screen (only those are forwarded).
  z.strictObject({ type: z.literal('sfu-publish'), sdp: sdpSchema, slots: publishedSlotsSchema }),
  // `revision`: the offer's, echoed: an answer to an offer sent again is not taken for a later one's.
  // Optional for pages from before it (issue 30 point 9b).
  z.strictObject({
    type: z.literal('sfu-answer'),
    sdp: sdpSchema,
    revision: z.optional(z.int().check(z.nonnegative())),
  }),
  z.strictObject({
    type: z.literal('sfu-candidate'),
    connection: z.enum(['publisher', 'subscriber']),
    candidate: iceCandidateSchema,
  }),
  z.strictObject({
    type: z.literal('sfu-view'),
    cameras: z.array(participantIdSchema).check(z.maxLength(MEETING_LIMITS.maxRoomSize)),
    layer: z.enum(CAMERA_LAYERS),
  }),
  z.strictObject({ type: z.literal('offer'), to: participantIdSchema, sdp: sdpSchema }),
  z.strictObject({ type: z.literal('answer'), to: participantIdSchema, sdp: sdpSchema }),
  z.strictObject({ type: z.literal('candidate'), to: participantIdSchema, candidate: iceCandidateSchema }),
  z.strictObject({ type: z.literal('chat'), text: chatTextSchema }),
  z.strictObject({ type: z.literal('media-state'), state: mediaStateSchema }),
  z.strictObject({ type: z.literal('leave') }),
  ...moderationMessageSchemas,
]);
export type JoinMessage = z.infer<typeof joinMessageSchema>;
/** What the browser asks of the SFU in an SFU room (decision 037). */
export type SfuRequest = Extract<z.infer<typeof clientMessageSchema>, { type: `sfu-${string}` }>;
export type ClientMessage = JoinMessage | z.infer<typeof clientMessageSchema>;

/** Someone in the room, as every participant sees them. */
export type Participant = {
  id: string;
  name: string;
  role: UserRole;
  media: MediaState;
  /** Runs the room (a teacher of its class). */
  host: boolean;
  /** Raised hand: a number that orders raised hands (smaller raised first); null when down. */
  hand: number | null;
};

export const participantSchema = z.object({
  id: participantIdSchema,
  name: z.string().check(z.maxLength(FIELD_LIMITS.name)),
  role: z.enum(USER_ROLES),
  media: mediaStateSchema,
  host: z.boolean(),
  hand: z.nullable(z.int()),
});

/** One stream of the SFU subscription: its mid on our receiving connection, and whose it is. */
export type SubscribedStream = { mid: string; participantId: string; slot: MediaSlot };

/** Why someone left: they left or closed the page, joined again elsewhere, their connection died, or a host removed them. */
export type LeaveReason = RoomLeaveReason;

/** What a host did to one participant's media, told to that participant only. */
export type ModerationAction = 'mute' | 'stop-camera';

/**
 * Server → client. `welcome` answers `join`; `participants` are those already
 * there (the newcomer makes the first offers). Room events are idempotent to
 * apply. `chat` goes to everyone in the room, the sender included (one order,
 * the server's time); `media-state` to everyone else.
 */
export type ServerMessage =
  | {
      type: 'welcome';
      protocolVersion: typeof PROTOCOL_VERSION;
      roomId: string;
      you: Participant;
      participants: Participant[];
      iceServers: IceServer[];
      roomSize: number;
      /** Locked by a host: only hosts may join (decision 038). */
      locked: boolean;
      topology: MediaTopology;
    }
  | { type: 'participant-joined'; participant: Participant }
  | { type: 'participant-left'; participantId: string; reason: LeaveReason }
  | { type: 'offer'; from: string; sdp: string }
  | { type: 'answer'; from: string; sdp: string }
  | { type: 'candidate'; from: string; candidate: IceCandidate }
  | { type: 'chat'; from: string; name: string; text: string; sentAt: string }
  | { type: 'media-state'; from: string; state: MediaState }
  /** To the participant a host muted (or whose camera a host stopped): turn it off and say so. */
  | { type: 'moderated'; action: ModerationAction; by: string }
  | { type: 'hand'; participantId: string; hand: number | null }
  | { type: 'hands-lowered'; by: string }
  | { type: 'room-lock'; locked: boolean; by: string }
  /** SFU rooms: Janus's answer to our publishing offer. */
  | { type: 'sfu-published'; sdp: string }
  /**
   * SFU rooms: the subscription's (new) offer, and whose slot each of its streams carries. An
   * offer not answered in time is sent again with the same `revision`; the answer echoes it.
   */
  | { type: 'sfu-offer'; sdp: string; streams: SubscribedStream[]; revision: number }
  /**
   * SFU rooms: the room's video server went away; drop the SFU connections and wait (the seat,
   * the room's lock and hands stay). Then `sfu-moved`: the room is on a server again, publish anew.
   */
  | { type: 'sfu-moving' }
  | { type: 'sfu-moved' }
  /**
   * Something went wrong without closing the socket: `code` for the screen to word in the
   * reader's language (issue 32), `message` in English for logs.
   */
  | { type: 'error'; code: MeetingErrorCode; message: string };

/** Why the server refused one message of a socket it keeps open. */
export const MEETING_ERRORS = {
  CHAT_TOO_FAST: 'You are sending chat messages too quickly. Wait a moment.',
  HAND_TOO_FAST: 'You are raising and lowering your hand too quickly. Wait a moment.',
  NOT_A_HOST: "Only the class's teachers can do this in a meeting.",
  TEACHER_NOT_REMOVABLE: 'Teachers of the class cannot be removed from its meeting.',
  NOT_DELIVERED: 'Your last message could not be delivered. Try again.',
} as const;
export type MeetingErrorCode = keyof typeof MEETING_ERRORS;

/** The socket's error message for `code`, its English beside it. */
export const meetingError = (code: MeetingErrorCode) => ({
  type: 'error' as const,
  code,
  message: MEETING_ERRORS[code],
});

// ---------------------------------------------------------------------------------------------
// Close codes: why the server closed a socket, with what a person should read.

export const CLOSE_CODES = {
  /** The room layer's codes, every protocol's (src/shared/rooms.ts, decision 065). */
  ...ROOM_CLOSE_CODES,
  /** The room needs the SFU and it cannot be reached now: the page retries. */
  MEDIA_UNAVAILABLE: 4503,
} as const;
export type CloseReason = keyof typeof CLOSE_CODES;

/** Human text per close reason; also sent as the close frame's reason (at most 123 bytes). */
export const CLOSE_MESSAGES: Record<CloseReason, string> = {
  LEFT: 'You left the meeting.',
  GOING_AWAY: 'The server is restarting. Reconnecting…',
  FRAME_TOO_LARGE: 'A message was too large to send.',
  SERVER_ERROR: 'The meeting service had a problem. Reconnecting…',
  REPLACED: 'You joined this meeting from another tab or device.',
  BAD_MESSAGE: 'The meeting page sent something the server did not understand. Reload the page.',
  TOKEN_EXPIRED: 'Your meeting pass has expired. Join the room again.',
  FORBIDDEN: 'This meeting link is not valid for this room.',
  SIGNED_OUT: 'Your sign-in changed (a new password, or signed out of all devices). Reconnecting…',
  JOIN_TIMEOUT: 'Joining took too long. Try again.',
  ROOM_FULL: 'This room is full.',
  TOO_LARGE: 'A message was too large to send.',
  CLIENT_TOO_OLD: 'This page is out of date. Reload it to join the meeting.',
  RATE_LIMITED: 'Too many messages were sent too quickly.',
  REMOVED: 'A teacher removed you from this meeting.',
  ROOM_LOCKED: 'The teacher has locked this room.',
  MEDIA_UNAVAILABLE: 'The video server cannot be reached right now. Trying again…',
};

/** The reason of a close code, or undefined for codes the server does not send (1006: connection lost). */
export function closeReasonOf(code: number): CloseReason | undefined {
  return closeReasonIn(CLOSE_CODES, code);
}

/** Whether the meeting screen should reconnect by itself after a close with this code. */
export function shouldReconnect(code: number): boolean {
  const reason = closeReasonOf(code);
  return (
    reason === undefined ||
    (ROOM_RECONNECT_REASONS as readonly CloseReason[]).includes(reason) ||
    reason === 'MEDIA_UNAVAILABLE'
  );
}
