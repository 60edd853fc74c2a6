import type { FastifyPluginAsync } from 'fastify';
import { createMeetingRoom, issueMeetingToken, listMeetingRooms } from '#shared/contract/meetings';
import { MEETING_LIMITS, type IceServer } from '#shared/meetings';
import type { Database } from '../../db/client.ts';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser, type SessionVersionLookup } from '../../plugins/auth.ts';
import type { RoomTransport, SocketLimits } from '../../realtime/room-socket.ts';
import { roomSessionCheck } from '../../realtime/room-tokens.ts';
import { createSignallingHub, type SfuRooms } from './meeting-hub.ts';
import { registerMeetingSocket } from './meeting-socket.ts';
import { createMeetingTokens } from './meeting-tokens.ts';
import { createMeetingsService } from './service.ts';

/** Meeting settings of buildApp(); every one has a default (the bus and the timings of sockets are the room transport's). */
export type MeetingsOptions = {
  /** The SFU (Janus, decision 037) when JANUS_URL is set: every room's media then goes through it. */
  sfu?: SfuRooms;
  /** MEETING_ROOM_SIZE. */
  roomSize?: number;
  /** ICE_SERVERS: STUN/TURN for real networks; none = host candidates only (one network). */
  iceServers?: IceServer[];
  /** Shorter timings and limits for tests. */
  joinTimeoutMs?: number;
  socketLimits?: Partial<SocketLimits>;
};

type MeetingsRoutesOptions = {
  db: Database;
  jwtSecret: string;
  /** Session versions (decision 017): a meeting ends with the login that minted its token. */
  sessions: SessionVersionLookup;
  /** The room transport (registered on the root before any route): the bus and the socket routes. */
  transport: RoomTransport;
  meetings?: MeetingsOptions;
};

/**
 * Meeting rooms (issue 7, decision 035): a class's new room (its teachers), the rooms of the
 * caller's classes, a meeting token (the class's teachers and students), the
 * signalling socket (a protocol of the room transport, decision 065). Not encapsulated.
 */
export function meetingsRoutes(options: MeetingsRoutesOptions): FastifyPluginAsync {
  const settings = options.meetings ?? {};
  const roomSize = settings.roomSize ?? MEETING_LIMITS.defaultRoomSize;
  const iceServers = settings.iceServers ?? [];
  const meetingTokens = createMeetingTokens(options.jwtSecret);
  const meetings = createMeetingsService(options.db, meetingTokens, { iceServers, roomSize });

  const plugin: FastifyPluginAsync = async (app) => {
    const { transport } = options;
    const hub = createSignallingHub({
      pubsub: transport.pubsub,
      sfu: settings.sfu,
      roomSize,
      iceServers,
      log: app.log,
      heartbeatMs: transport.heartbeatMs,
    });

    routeEndpoint(
      app,
      createMeetingRoom,
      { config: { policy: { caller: 'teacher', touches: ['own-classes'] } } },
      async (request) => ({
        message: 'Meeting room created',
        data: await meetings.createRoom(currentUser(request), request.body.classId),
      }),
    );

    routeEndpoint(
      app,
      listMeetingRooms,
      { config: { policy: { caller: 'signed-in', touches: ['meeting-room'] } } },
      async (request) => ({ message: 'Meeting rooms fetched', data: await meetings.listRooms(currentUser(request)) }),
    );

    routeEndpoint(
      app,
      issueMeetingToken,
      { config: { policy: { caller: 'signed-in', touches: ['meeting-room'] } } },
      async (request) => ({
        message: 'Meeting token issued',
        data: await meetings.issueTicket(currentUser(request), request.params.roomId),
      }),
    );

    registerMeetingSocket(transport, {
      hub,
      authenticate: (token) => meetingTokens.check(token),
      isSessionCurrent: roomSessionCheck(options.sessions),
      joinTimeoutMs: settings.joinTimeoutMs,
      limits: settings.socketLimits,
    });
  };
  // fastify-plugin's flag, set by hand: the plugin's routes and hooks belong to the caller's context.
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
