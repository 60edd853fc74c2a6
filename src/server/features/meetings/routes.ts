import type { FastifyPluginAsync } from 'fastify';
import { createMeetingRoom, issueMeetingToken, listMeetingRooms } from '#shared/contract/meetings';
import { MEETING_LIMITS, type IceServer } from '#shared/meetings';
import type { Database } from '../../db/client.ts';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser, sessionState, type SessionVersionLookup } from '../../plugins/auth.ts';
import { createInProcessPubSub, type PubSub } from '../../realtime/pubsub.ts';
import { createSignallingHub, type SfuRooms } from '../../realtime/signalling-hub.ts';
import { registerMeetingSocket, type SocketLimits } from '../../realtime/websocket-route.ts';
import { createMeetingTokens, MeetingTokenError } from './meeting-tokens.ts';
import { createMeetingsService } from './service.ts';

/** Meeting settings of buildApp(); every one has a default for a single instance. */
export type MeetingsOptions = {
  /** Shared with the other instances (Redis); in-process and owned by the app when omitted. */
  pubsub?: PubSub;
  /** The SFU (Janus, decision 037) when JANUS_URL is set: every room's media then goes through it. */
  sfu?: SfuRooms;
  /** MEETING_ROOM_SIZE. */
  roomSize?: number;
  /** ICE_SERVERS: STUN/TURN for real networks; none = host candidates only (one network). */
  iceServers?: IceServer[];
  /** Shorter timings and limits for tests. */
  joinTimeoutMs?: number;
  pingIntervalMs?: number;
  heartbeatMs?: number;
  socketLimits?: Partial<SocketLimits>;
};

type MeetingsRoutesOptions = {
  db: Database;
  jwtSecret: string;
  /** Session versions (decision 017): a meeting ends with the login that minted its token. */
  sessions: SessionVersionLookup;
  meetings?: MeetingsOptions;
};

/**
 * Meeting rooms (issue 7, decision 035): a class's new room (its teachers), the rooms of the
 * caller's classes, a meeting token (the class's teachers and students), the
 * signalling socket. Not encapsulated, and registered before the other routes:
 * @fastify/websocket must see every route to close upgrade requests sent to them.
 */
export function meetingsRoutes(options: MeetingsRoutesOptions): FastifyPluginAsync {
  const settings = options.meetings ?? {};
  const roomSize = settings.roomSize ?? MEETING_LIMITS.defaultRoomSize;
  const iceServers = settings.iceServers ?? [];
  const meetingTokens = createMeetingTokens(options.jwtSecret);
  const meetings = createMeetingsService(options.db, meetingTokens, { iceServers, roomSize });

  const plugin: FastifyPluginAsync = async (app) => {
    const pubsub = settings.pubsub ?? createInProcessPubSub();
    // The app owns only a bus it made; one passed in is closed by whoever made it (main.ts).
    if (!settings.pubsub) app.addHook('onClose', () => pubsub.close());
    const hub = createSignallingHub({
      pubsub,
      sfu: settings.sfu,
      roomSize,
      iceServers,
      log: app.log,
      heartbeatMs: settings.heartbeatMs,
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

    await registerMeetingSocket(app, {
      hub,
      authenticate: async (token) => {
        try {
          return await meetingTokens.verify(token);
        } catch (error) {
          if (error instanceof MeetingTokenError) return error.reason === 'expired' ? 'TOKEN_EXPIRED' : 'FORBIDDEN';
          throw error;
        }
      },
      isSessionCurrent: async (claims) =>
        (await sessionState(options.sessions, { id: claims.sub, role: claims.role }, claims.sv)) === 'current',
      joinTimeoutMs: settings.joinTimeoutMs,
      pingIntervalMs: settings.pingIntervalMs,
      limits: settings.socketLimits,
    });
  };
  // fastify-plugin's flag, set by hand: the plugin's routes and hooks belong to the caller's context.
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
