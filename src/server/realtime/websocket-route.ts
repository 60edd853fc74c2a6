import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
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
  type ServerMessage,
  meetingError,
} from '#shared/meetings';
import { meetingSocket } from '#shared/contract/meetings';
import type { HubConnection, JoinOutcome, Member, SignallingHub } from './signalling-hub.ts';

/** The token's claims, or why the socket is refused. */
export type MeetingAuthenticator = (token: string) => Promise<MeetingTokenClaims | 'TOKEN_EXPIRED' | 'FORBIDDEN'>;

/** MEETING_LIMITS' socket budgets as numbers (tests set smaller ones). */
export type SocketLimits = Record<'messageMaxBytes' | 'messagesPerSecond' | 'messageBurst', number>;

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
  /** Sockets are pinged this often; one that has not answered the previous ping is cut. */
  pingIntervalMs?: number;
  limits?: Partial<SocketLimits>;
};

export const DEFAULT_PING_INTERVAL_MS = 20_000;
/** A reader this far behind (a frozen tab on a slow link) is cut rather than buffered for. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** On shutdown, sockets get this long to finish their closing handshake. */
const CLOSE_GRACE_MS = 1_000;

const tokenQuerySchema = z.object({ token: z.string().min(1).max(4096) });

/**
 * GET /api/meetings/ws?token=… (browsers cannot set headers on a WebSocket).
 * The upgrade is always accepted so that every refusal is a close code the page
 * can read (an HTTP 401 on the upgrade reaches the page as a bare 1006).
 *
 * Registers @fastify/websocket in `app`'s own context: call it on the root
 * before any other route, so that an upgrade request to any other address is
 * answered and its socket closed (otherwise it would stay open for ever).
 */
export async function registerMeetingSocket(app: FastifyInstance, options: MeetingSocketOptions): Promise<void> {
  const limits: SocketLimits = {
    messageMaxBytes: options.limits?.messageMaxBytes ?? MEETING_LIMITS.messageMaxBytes,
    messagesPerSecond: options.limits?.messagesPerSecond ?? MEETING_LIMITS.messagesPerSecond,
    messageBurst: options.limits?.messageBurst ?? MEETING_LIMITS.messageBurst,
  };
  const joinTimeoutMs = options.joinTimeoutMs ?? MEETING_LIMITS.joinTimeoutMs;

  const isAlive = new WeakMap<WebSocket, boolean>();
  /** The session check of each socket whose token has been accepted. */
  const sessionChecks = new WeakMap<WebSocket, () => Promise<void>>();
  await app.register(websocket, {
    options: {
      // A frame over the limit is refused by ws itself (1009) before it is gathered; one of
      // exactly the limit is the largest a message may be.
      maxPayload: limits.messageMaxBytes,
      perMessageDeflate: false,
    },
    // A client that vanishes mid-frame is not a server error.
    errorHandler: (error, socket, request) => {
      request.log.info({ err: error }, 'meeting socket error');
      socket.terminate();
    },
    preClose: () => shutDown(app),
  });

  const pingTimer = setInterval(() => {
    for (const socket of app.websocketServer.clients) {
      if (isAlive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      isAlive.set(socket, false);
      socket.ping();
      void sessionChecks.get(socket)?.();
    }
  }, options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS);
  pingTimer.unref();

  async function shutDown(server: FastifyInstance) {
    clearInterval(pingTimer);
    await options.hub.close();
    const sockets = [...server.websocketServer.clients];
    for (const socket of sockets) closeSocket(socket, 'GOING_AWAY');
    const closed = new Promise<void>((resolve) => server.websocketServer.close(() => resolve()));
    const grace = setTimeout(() => sockets.forEach((socket) => socket.terminate()), CLOSE_GRACE_MS);
    await closed;
    clearTimeout(grace);
  }

  /** The token's verdict, reached before the upgrade: no frame is read before it. */
  const verdicts = new WeakMap<object, MeetingTokenClaims | CloseReason>();
  async function checkToken(token: string | undefined): Promise<MeetingTokenClaims | CloseReason> {
    try {
      const verdict = token ? await options.authenticate(token) : 'FORBIDDEN';
      if (typeof verdict === 'string') return verdict;
      return (await options.isSessionCurrent(verdict)) ? verdict : 'SIGNED_OUT';
    } catch {
      return 'SERVER_ERROR';
    }
  }

  // Request logs show the address with the token redacted (plugins/request-logging.ts).
  app.route({
    method: 'GET',
    url: MEETING_SOCKET_PATH,
    // The meeting token in the address is the credential (decision 013), checked before the
    // upgrade: a socket exists only once its verdict is known, and a refused one is closed with
    // its reason without a frame of it being read.
    config: { policy: { caller: 'meeting-token', touches: ['meeting-room'] }, endpoint: meetingSocket },
    preValidation: async (request) => {
      if (request.headers.upgrade === undefined) return;
      const query = tokenQuerySchema.safeParse(request.query);
      const verdict = await checkToken(query.success ? query.data.token : undefined);
      if (verdict === 'SERVER_ERROR') request.log.error('meeting socket: token check failed');
      verdicts.set(request.raw, verdict);
    },
    // A plain HTTP request (no upgrade) is told what this address is, in the envelope.
    handler: async (_request, reply) =>
      reply.code(426).header('upgrade', 'websocket').send({
        success: false,
        code: 'UPGRADE_REQUIRED',
        message: 'This address is for meeting sockets only',
        data: null,
      }),
    wsHandler: (socket, request) => {
      const verdict = verdicts.get(request.raw) ?? 'FORBIDDEN';
      if (typeof verdict === 'string') return refuseSocket(socket, verdict);
      isAlive.set(socket, true);
      socket.on('pong', () => isAlive.set(socket, true));
      handleSocket(socket, request.log, verdict);
    },
  });

  /** Closes the socket once its login has ended; a failed check (database down) keeps it. */
  function watchSession(
    socket: WebSocket,
    connection: HubConnection,
    claims: MeetingTokenClaims,
    log: FastifyBaseLogger,
  ) {
    let isChecking = false;
    sessionChecks.set(socket, async () => {
      if (isChecking) return; // a slow check is not stacked up ping after ping
      isChecking = true;
      try {
        if (!(await options.isSessionCurrent(claims))) connection.close('SIGNED_OUT');
      } catch (error) {
        log.warn({ err: error }, 'meeting socket: session check failed; the socket stays');
      } finally {
        isChecking = false;
      }
    });
  }

  /**
   * A socket whose token was refused: closed with the reason at once. Nothing listens to its
   * messages, so nothing it sends is parsed (ws still refuses a frame over maxPayload); cut
   * after the closing handshake's grace.
   */
  function refuseSocket(socket: WebSocket, reason: CloseReason) {
    closeSocket(socket, reason);
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  function handleSocket(socket: WebSocket, log: FastifyBaseLogger, claims: MeetingTokenClaims) {
    let isClosed = false;
    let member: Member | undefined;
    const takeMessage = createTokenBucket(limits.messagesPerSecond, limits.messageBurst);
    const takeChatLine = createTokenBucket(MEETING_LIMITS.chatPerSecond, MEETING_LIMITS.chatBurst);
    const takeHandChange = createTokenBucket(MEETING_LIMITS.handPerSecond, MEETING_LIMITS.handBurst);

    const connection: HubConnection = {
      send(message: ServerMessage) {
        if (isClosed || socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
          log.info('meeting socket: the client stopped reading; cut');
          socket.terminate();
          return;
        }
        socket.send(JSON.stringify(message));
      },
      close(reason: CloseReason) {
        if (isClosed) return;
        isClosed = true;
        clearTimeout(joinTimer);
        closeSocket(socket, reason);
        void member?.leave();
      },
    };
    const joinTimer = setTimeout(() => connection.close('JOIN_TIMEOUT'), joinTimeoutMs);

    watchSession(socket, connection, claims, log);
    // Messages are handled one at a time, in order.
    let queue: Promise<void> = Promise.resolve();

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isClosed) return;
      const bytes = toBuffer(data);
      // ws refused anything over messageMaxBytes (maxPayload) before gathering it. Checked
      // before parsing, so a flood costs us as little as possible.
      if (!takeMessage()) return connection.close('RATE_LIMITED');
      if (isBinary) return connection.close('BAD_MESSAGE');
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        return connection.close('BAD_MESSAGE');
      }
      queue = queue.then(async () => {
        if (isClosed) return;
        try {
          await handleMessage(parsed);
        } catch (error) {
          log.error({ err: error }, 'meeting socket: message failed');
          connection.close('SERVER_ERROR');
        }
      });
    });

    socket.on('close', () => {
      isClosed = true;
      clearTimeout(joinTimer);
      void member?.leave();
    });

    async function handleMessage(parsed: unknown) {
      if (!member) return handleJoin(parsed, claims);
      const message = clientMessageSchema.safeParse(parsed);
      if (!message.success) return connection.close('BAD_MESSAGE');
      const current = message.data;
      try {
        switch (current.type) {
          case 'leave':
            return connection.close('LEFT');
          case 'offer':
          case 'answer':
          case 'candidate':
            return await member.relay(current);
          case 'sfu-publish':
          case 'sfu-answer':
          case 'sfu-candidate':
          case 'sfu-view':
            return await member.sfu(current);
          case 'chat':
            // Chat has its own, slower budget: one person must not flood everyone's screen.
            if (!takeChatLine()) {
              return connection.send(meetingError('CHAT_TOO_FAST'));
            }
            return await member.chat(current.text);
          case 'media-state':
            return await member.setMedia(current.state);
          case 'mute':
          case 'mute-all':
          case 'stop-camera':
          case 'hand':
          case 'remove':
          case 'lock':
          case 'lower-hands': {
            // Up, down, up, down… would flash on every screen in the room: a budget like chat's.
            if (current.type === 'hand' && !takeHandChange()) {
              return connection.send(meetingError('HAND_TOO_FAST'));
            }
            // A host's power lasts as long as their sign-in: a teacher deactivated (or signed out)
            // since the token was minted is closed before the action, not at the next ping.
            if (current.type !== 'hand' && claims.host && !(await options.isSessionCurrent(claims))) {
              return connection.close('SIGNED_OUT');
            }
            // A refusal (not a host) is told to the sender; the socket stays.
            const refusal = await member.moderate(current);
            if (refusal) connection.send(meetingError(refusal));
            return;
          }
        }
      } catch (error) {
        // The bus is unreachable for a moment: the sender is told; the socket stays.
        log.warn({ err: error }, 'meeting socket: could not pass a message on');
        connection.send(meetingError('NOT_DELIVERED'));
      }
    }

    async function handleJoin(parsed: unknown, tokenClaims: MeetingTokenClaims) {
      // The version first: an older page with another join shape is told to reload, not that it is broken.
      const version = joinVersionSchema.safeParse(parsed);
      if (!version.success) return connection.close('BAD_MESSAGE');
      if (version.data.protocolVersion !== PROTOCOL_VERSION) return connection.close('CLIENT_TOO_OLD');
      const join = joinMessageSchema.safeParse(parsed);
      if (!join.success) return connection.close('BAD_MESSAGE');
      if (join.data.roomId !== tokenClaims.room) return connection.close('FORBIDDEN');
      member = options.hub.admit(connection, {
        userId: tokenClaims.sub,
        name: tokenClaims.name,
        role: tokenClaims.role,
        roomId: tokenClaims.room,
        host: tokenClaims.host,
      });
      const outcome = await member.join(join.data.media);
      if (outcome === 'joined') clearTimeout(joinTimer);
      // 'gone': the socket closed meanwhile (nothing to do) or the server is shutting down.
      else connection.close(joinRefusal[outcome]);
    }
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

function closeSocket(socket: WebSocket, reason: CloseReason) {
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
    socket.close(CLOSE_CODES[reason], CLOSE_MESSAGES[reason]);
  }
}

/** A WebSocket message's bytes, whichever of its three shapes `ws` delivered. */
export function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Allows `burst` messages at once and `perSecond` sustained. */
function createTokenBucket(perSecond: number, burst: number): () => boolean {
  let tokens = burst;
  let last = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - last) * perSecond) / 1000);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}
