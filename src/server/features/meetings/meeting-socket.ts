import {
  CLOSE_CODES,
  CLOSE_MESSAGES,
  MEETING_LIMITS,
  PROTOCOL_VERSION,
  clientMessageSchema,
  joinMessageSchema,
  joinVersionSchema,
  MEETING_SOCKET_PATH,
  type CloseReason,
  type MeetingTokenClaims,
  meetingError,
} from '#shared/meetings';
import { meetingSocket } from '#shared/contract/meetings';
import {
  createTokenBucket,
  type RoomSocket,
  type RoomTransport,
  socketLimits,
  type SocketLimits,
} from '../../realtime/room-socket.ts';
import type { HubConnection, JoinOutcome, Member, SignallingHub } from './meeting-hub.ts';

/** The token's claims, or why the socket is refused. */
export type MeetingAuthenticator = (token: string) => Promise<MeetingTokenClaims | 'TOKEN_EXPIRED' | 'FORBIDDEN'>;

export type MeetingSocketOptions = {
  hub: SignallingHub;
  authenticate: MeetingAuthenticator;
  /**
   * Whether the login that minted the token is still signed in (decision 017). Asked when
   * the socket opens and again at every ping, so a password change or "sign out of all
   * devices" also closes the meetings of that account (SIGNED_OUT), on every instance.
   */
  isSessionCurrent: (claims: MeetingTokenClaims) => Promise<boolean>;
  joinTimeoutMs?: number;
  /** MEETING_LIMITS' socket budgets unless given (tests set smaller ones). */
  limits?: Partial<SocketLimits>;
};

/**
 * GET /api/meetings/ws?token=… (browsers cannot set headers on a WebSocket): the meeting
 * protocol on the room transport (realtime/room-socket.ts, decision 065), which owns the
 * socket's life (token before the upgrade, budgets, pings, close codes). Here: the join (version
 * first, then the token's room), then each message of decision 013 and 038 to the hub, with the
 * chat's and the hand's own budgets.
 */
export function registerMeetingSocket(transport: RoomTransport, options: MeetingSocketOptions): void {
  const limits = socketLimits(MEETING_LIMITS, options.limits);

  transport.route<MeetingTokenClaims, CloseReason>({
    path: MEETING_SOCKET_PATH,
    // The meeting token in the address is the credential (decision 013), checked before the upgrade.
    config: { policy: { caller: 'meeting-token', touches: ['meeting-room'] }, endpoint: meetingSocket },
    upgradeRequired: 'This address is for meeting sockets only',
    closeCodes: CLOSE_CODES,
    closeMessages: CLOSE_MESSAGES,
    authenticate: options.authenticate,
    isSessionCurrent: options.isSessionCurrent,
    limits,
    joinTimeoutMs: options.joinTimeoutMs ?? MEETING_LIMITS.joinTimeoutMs,
    open: (socket, claims, { log }) => openMeetingSocket(socket, claims, log),
    shutDown: () => options.hub.close(),
  });

  function openMeetingSocket(
    socket: RoomSocket<CloseReason>,
    claims: MeetingTokenClaims,
    log: { warn(object: object, message: string): void },
  ) {
    let member: Member | undefined;
    const takeChatLine = createTokenBucket(MEETING_LIMITS.chatPerSecond, MEETING_LIMITS.chatBurst);
    const takeHandChange = createTokenBucket(MEETING_LIMITS.handPerSecond, MEETING_LIMITS.handBurst);
    const connection: HubConnection = {
      send: (message) => socket.send(message),
      close: (reason) => socket.close(reason),
    };

    async function handleJoin(parsed: unknown) {
      // The version first: an older page with another join shape is told to reload, not that it is broken.
      const version = joinVersionSchema.safeParse(parsed);
      if (!version.success) return socket.close('BAD_MESSAGE');
      if (version.data.protocolVersion !== PROTOCOL_VERSION) return socket.close('CLIENT_TOO_OLD');
      const join = joinMessageSchema.safeParse(parsed);
      if (!join.success) return socket.close('BAD_MESSAGE');
      if (join.data.roomId !== claims.room) return socket.close('FORBIDDEN');
      member = options.hub.admit(connection, {
        userId: claims.sub,
        name: claims.name,
        role: claims.role,
        roomId: claims.room,
        host: claims.host,
      });
      const outcome = await member.join(join.data.media);
      if (outcome === 'joined') socket.joined();
      // 'gone': the socket closed meanwhile (nothing to do) or the server is shutting down.
      else socket.close(joinRefusal[outcome]);
    }

    async function handleMessage(joined: Member, parsed: unknown) {
      const message = clientMessageSchema.safeParse(parsed);
      if (!message.success) return socket.close('BAD_MESSAGE');
      const current = message.data;
      try {
        switch (current.type) {
          case 'leave':
            return socket.close('LEFT');
          case 'offer':
          case 'answer':
          case 'candidate':
            return await joined.relay(current);
          case 'sfu-publish':
          case 'sfu-answer':
          case 'sfu-candidate':
          case 'sfu-view':
            return await joined.sfu(current);
          case 'chat':
            // Chat has its own, slower budget: one person must not flood everyone's screen.
            if (!takeChatLine()) return socket.send(meetingError('CHAT_TOO_FAST'));
            return await joined.chat(current.text);
          case 'media-state':
            return await joined.setMedia(current.state);
          case 'mute':
          case 'mute-all':
          case 'stop-camera':
          case 'hand':
          case 'remove':
          case 'lock':
          case 'lower-hands': {
            // Up, down, up, down… would flash on every screen in the room: a budget like chat's.
            if (current.type === 'hand' && !takeHandChange()) return socket.send(meetingError('HAND_TOO_FAST'));
            // A host's power lasts as long as their sign-in: a teacher deactivated (or signed out)
            // since the token was minted is closed before the action, not at the next ping.
            if (current.type !== 'hand' && claims.host && !(await options.isSessionCurrent(claims))) {
              return socket.close('SIGNED_OUT');
            }
            // A refusal (not a host) is told to the sender; the socket stays.
            const refusal = await joined.moderate(current);
            if (refusal) socket.send(meetingError(refusal));
            return;
          }
        }
      } catch (error) {
        // The bus is unreachable for a moment: the sender is told; the socket stays.
        log.warn({ err: error }, 'meeting socket: could not pass a message on');
        socket.send(meetingError('NOT_DELIVERED'));
      }
    }

    return {
      message: (parsed: unknown) => (member ? handleMessage(member, parsed) : handleJoin(parsed)),
      closed: () => void member?.leave(),
    };
  }
}

/** The close reason of a join that did not seat the participant. */
const joinRefusal: Record<Exclude<JoinOutcome, 'joined'>, CloseReason> = {
  full: 'ROOM_FULL',
  gone: 'GOING_AWAY',
  'media-unavailable': 'MEDIA_UNAVAILABLE',
  removed: 'REMOVED',
  locked: 'ROOM_LOCKED',
};
