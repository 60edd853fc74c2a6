import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { PARTICIPANT_ID_PATTERN, type RoomCloseReason } from '#shared/rooms';
import { createInProcessPubSub, type PubSub } from './pubsub.ts';
import type { RoomTokenClaims } from './room-tokens.ts';

/**
 * The room transport's sockets (decision 065): one WebSocket route per protocol, all on the one
 * @fastify/websocket server. The layer owns a socket's life whatever it carries: the room token
 * checked before the upgrade, the login behind it watched at every ping, a dead socket cut, the
 * message budget and size, JSON text only, the first message within the join time-out, messages
 * handled one at a time in order (a close for breaking the rules in its turn, after those before
 * it), and every refusal a close code with its reason. The protocol gets parsed messages and says
 * what they mean (`RoomSocketProtocol.open`).
 */

/** One socket's message budget: size, and a token bucket of `messageBurst` at once and `messagesPerSecond` sustained. */
export type SocketLimits = Record<'messageMaxBytes' | 'messagesPerSecond' | 'messageBurst', number>;

/** A protocol's socket budget: its own limits, each replaced where `overrides` (tests) gives one. */
export const socketLimits = (defaults: SocketLimits, overrides: Partial<SocketLimits> = {}): SocketLimits => ({
  messageMaxBytes: overrides.messageMaxBytes ?? defaults.messageMaxBytes,
  messagesPerSecond: overrides.messagesPerSecond ?? defaults.messagesPerSecond,
  messageBurst: overrides.messageBurst ?? defaults.messageBurst,
});

export type RoomTransportOptions = {
  /** Shared with the other instances (Redis); in-process and owned by the transport when omitted. */
  pubsub?: PubSub;
  /** Sockets are pinged this often; one that has not answered the previous ping is cut. */
  pingIntervalMs?: number;
  /** How often each protocol's hub tells the presence its seats are alive. */
  heartbeatMs?: number;
  /** The largest frame any protocol takes (ws refuses a larger one itself: 1009). */
  frameMaxBytes?: number;
};

/** The protocol's side of one socket. */
export type RoomSocket<Reason extends string> = {
  /** Sends one message as JSON text; a reader 4 MB behind is cut instead. */
  send(message: object): void;
  /** Closes with the reason's code and text; the protocol hears `closed(reason)`. */
  close(reason: Reason | RoomCloseReason): void;
  /** The join is done: the join time-out stops. */
  joined(): void;
};

/** What a protocol does with one socket whose token was accepted. */
export type RoomSocketSession = {
  /**
   * One JSON message (the first is the join), handled before the next; a throw closes with
   * SERVER_ERROR. `receivedAt`: when its frame arrived (a game times answers by it, not by their turn).
   */
  message(parsed: unknown, context: { receivedAt: Date }): Promise<void>;
  /**
   * The socket closed: `reason` when the server closed it, undefined when the page or the network
   * did (a protocol that resumes keeps the seat for a while then).
   */
  closed(reason: string | undefined): void;
};

export type RoomSocketProtocol<Claims extends RoomTokenClaims, Reason extends string> = {
  /** GET path of the socket, e.g. /api/meetings/ws. */
  path: string;
  /** The route's config: its policy (decision 020) and endpoint contract (decision 026). */
  config: Record<string, unknown>;
  /** Told (426) to a plain HTTP request to the path, in the envelope's message. */
  upgradeRequired: string;
  /** Every close reason of the protocol (the layer's among them) with its code and text (the close frame's reason). */
  closeCodes: Record<Reason | RoomCloseReason, number>;
  closeMessages: Record<Reason | RoomCloseReason, string>;
  /** The token's claims, or why the socket is refused. */
  authenticate(token: string): Promise<Claims | 'TOKEN_EXPIRED' | 'FORBIDDEN'>;
  /**
   * Whether the login that minted the token is still signed in (decision 017). Asked when the
   * socket opens and again at every ping, so a password change or "sign out of all devices" also
   * closes the sockets of that account (SIGNED_OUT), on every instance.
   */
  isSessionCurrent(claims: Claims): Promise<boolean>;
  limits: SocketLimits;
  joinTimeoutMs: number;
  /** Reads `?resume=` (the seat a reconnecting page held) for `open`. */
  resumes?: boolean;
  /** A socket whose token was accepted. */
  open(
    socket: RoomSocket<Reason>,
    claims: Claims,
    context: { log: FastifyBaseLogger; resumeId: string | undefined },
  ): RoomSocketSession;
  /** The server shuts down: close the protocol's rooms (their sockets with GOING_AWAY) and give the seats back. */
  shutDown(): Promise<void>;
};

export type RoomTransport = {
  readonly pubsub: PubSub;
  readonly heartbeatMs: number | undefined;
  /** Adds one protocol's socket route (before the server listens). */
  route<Claims extends RoomTokenClaims, Reason extends string>(protocol: RoomSocketProtocol<Claims, Reason>): void;
};

export const DEFAULT_PING_INTERVAL_MS = 20_000;
export const DEFAULT_FRAME_MAX_BYTES = 64 * 1024;
/** A reader this far behind (a frozen tab on a slow link) is cut rather than buffered for. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** On shutdown, sockets get this long to finish their closing handshake. */
const CLOSE_GRACE_MS = 1_000;
/** A socket closed for breaking the rules gets this long to finish the messages it sent before. */
const DRAIN_MAX_MS = 5_000;

const tokenQuerySchema = z.object({
  token: z.string().min(1).max(4096),
  // A malformed one is no resume (the seat is claimed anew), never a refusal.
  resume: z.string().regex(PARTICIPANT_ID_PATTERN).optional().catch(undefined),
});

/**
 * Registers @fastify/websocket in `app`'s own context, with the ping loop and the shutdown of
 * every protocol's sockets: call it on the root before any other route, so that an upgrade
 * request to any other address is answered and its socket closed (otherwise it would stay open
 * for ever). Protocols then add their routes with `route`.
 */
export async function registerRoomTransport(
  app: FastifyInstance,
  options: RoomTransportOptions = {},
): Promise<RoomTransport> {
  const pubsub = options.pubsub ?? createInProcessPubSub();
  // The app owns only a bus it made; one passed in is closed by whoever made it (main.ts).
  if (!options.pubsub) app.addHook('onClose', () => pubsub.close());
  const frameMaxBytes = options.frameMaxBytes ?? DEFAULT_FRAME_MAX_BYTES;
  const protocols: { shutDown(): Promise<void> }[] = [];
  const isAlive = new WeakMap<WebSocket, boolean>();
  /** The session check of each socket whose token has been accepted. */
  const sessionChecks = new WeakMap<WebSocket, () => Promise<void>>();
  /** How to close each socket with GOING_AWAY in its protocol's words. */
  const goingAway = new WeakMap<WebSocket, () => void>();

  await app.register(websocket, {
    options: {
      // A frame over the limit is refused by ws itself (1009) before it is gathered; one of
      // exactly the limit is the largest a message may be.
      maxPayload: frameMaxBytes,
      perMessageDeflate: false,
    },
    // A client that vanishes mid-frame is not a server error.
    errorHandler: (error, socket, request) => {
      request.log.info({ err: error }, 'room socket error');
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
    await Promise.all(protocols.map((protocol) => protocol.shutDown()));
    const sockets = [...server.websocketServer.clients];
    for (const socket of sockets) {
      const close = goingAway.get(socket);
      if (close) close();
      else socket.close(1001);
    }
    const closed = new Promise<void>((resolve) => server.websocketServer.close(() => resolve()));
    const grace = setTimeout(() => sockets.forEach((socket) => socket.terminate()), CLOSE_GRACE_MS);
    await closed;
    clearTimeout(grace);
  }

  function route<Claims extends RoomTokenClaims, Reason extends string>(protocol: RoomSocketProtocol<Claims, Reason>) {
    if (protocol.limits.messageMaxBytes > frameMaxBytes) {
      throw new Error(`${protocol.path}: messages of ${protocol.limits.messageMaxBytes} bytes exceed the frame limit`);
    }
    protocols.push(protocol);
    type AnyReason = Reason | RoomCloseReason;

    const closeSocket = (socket: WebSocket, reason: AnyReason) => {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) {
        socket.close(protocol.closeCodes[reason], protocol.closeMessages[reason]);
      }
    };

    /** The token's verdict, reached before the upgrade: no frame is read before it. */
    const verdicts = new WeakMap<object, { claims: Claims; resumeId: string | undefined } | AnyReason>();
    async function checkToken(token: string | undefined): Promise<Claims | AnyReason> {
      try {
        const verdict = token ? await protocol.authenticate(token) : 'FORBIDDEN';
        if (typeof verdict === 'string') return verdict;
        return (await protocol.isSessionCurrent(verdict)) ? verdict : 'SIGNED_OUT';
      } catch {
        return 'SERVER_ERROR';
      }
    }

    // Request logs show the address with the token redacted (plugins/request-logging.ts).
    app.route({
      method: 'GET',
      url: protocol.path,
      // The room token in the address is the credential, checked before the upgrade: a socket
      // exists only once its verdict is known, and a refused one is closed with its reason without
      // a frame of it being read.
      config: protocol.config,
      preValidation: async (request) => {
        if (request.headers.upgrade === undefined) return;
        const query = tokenQuerySchema.safeParse(request.query);
        const verdict = await checkToken(query.success ? query.data.token : undefined);
        if (verdict === 'SERVER_ERROR') request.log.error('room socket: token check failed');
        const resumeId = protocol.resumes && query.success ? query.data.resume : undefined;
        verdicts.set(request.raw, typeof verdict === 'string' ? verdict : { claims: verdict, resumeId });
      },
      // A plain HTTP request (no upgrade) is told what this address is, in the envelope.
      handler: async (_request, reply) =>
        reply.code(426).header('upgrade', 'websocket').send({
          success: false,
          code: 'UPGRADE_REQUIRED',
          message: protocol.upgradeRequired,
          data: null,
        }),
      wsHandler: (socket, request) => {
        goingAway.set(socket, () => closeSocket(socket, 'GOING_AWAY'));
        const verdict = verdicts.get(request.raw) ?? 'FORBIDDEN';
        if (typeof verdict === 'string') return refuseSocket(socket, verdict);
        isAlive.set(socket, true);
        socket.on('pong', () => isAlive.set(socket, true));
        handleSocket(socket, request.log, verdict.claims, verdict.resumeId);
      },
    });

    /**
     * A socket whose token was refused: closed with the reason at once. Nothing listens to its
     * messages, so nothing it sends is parsed (ws still refuses a frame over maxPayload); cut
     * after the closing handshake's grace.
     */
    function refuseSocket(socket: WebSocket, reason: AnyReason) {
      closeSocket(socket, reason);
      setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
    }

    function handleSocket(socket: WebSocket, log: FastifyBaseLogger, claims: Claims, resumeId: string | undefined) {
      let isClosed = false;
      /** The protocol's session, once open() has made it. */
      const opened: { session?: RoomSocketSession } = {};
      const takeMessage = createTokenBucket(protocol.limits.messagesPerSecond, protocol.limits.messageBurst);

      const roomSocket: RoomSocket<Reason> = {
        send(message) {
          if (isClosed || socket.readyState !== socket.OPEN) return;
          if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
            log.info('room socket: the client stopped reading; cut');
            socket.terminate();
            return;
          }
          socket.send(JSON.stringify(message));
        },
        close(reason) {
          if (isClosed) return;
          isClosed = true;
          clearTimeout(joinTimer);
          closeSocket(socket, reason);
          opened.session?.closed(reason);
        },
        joined: () => clearTimeout(joinTimer),
      };
      const joinTimer = setTimeout(() => roomSocket.close('JOIN_TIMEOUT'), protocol.joinTimeoutMs);
      const session = protocol.open(roomSocket, claims, { log, resumeId });
      opened.session = session;

      watchSession(socket, roomSocket, claims, log);
      // Messages are handled one at a time, in order.
      let queue: Promise<void> = Promise.resolve();
      /** A message broke the budget or the format: nothing more is read, and the close waits its turn. */
      let isClosing = false;

      /**
       * Closes for a message that broke the rules, in its turn: the messages received before it,
       * within the budget and still queued, are handled first (a host's quick "+10 s" within the
       * burst all count), and nothing after it is read. A queue that takes too long to drain
       * (a stuck handler) is cut short.
       */
      const closeInTurn = (reason: RoomCloseReason) => {
        isClosing = true;
        const cutShort = setTimeout(() => roomSocket.close(reason), DRAIN_MAX_MS);
        cutShort.unref();
        queue = queue.then(() => {
          clearTimeout(cutShort);
          roomSocket.close(reason);
        });
      };

      socket.on('message', (data: RawData, isBinary: boolean) => {
        if (isClosed || isClosing) return;
        const bytes = toBuffer(data);
        // ws refused anything over the frame limit before gathering it. Checked before parsing,
        // so a flood costs us as little as possible.
        const receivedAt = new Date();
        if (!takeMessage()) return closeInTurn('RATE_LIMITED');
        if (bytes.length > protocol.limits.messageMaxBytes) return closeInTurn('TOO_LARGE');
        if (isBinary) return closeInTurn('BAD_MESSAGE');
        let parsed: unknown;
        try {
          parsed = JSON.parse(bytes.toString('utf8'));
        } catch {
          return closeInTurn('BAD_MESSAGE');
        }
        queue = queue.then(async () => {
          if (isClosed) return;
          try {
            await session.message(parsed, { receivedAt });
          } catch (error) {
            log.error({ err: error }, 'room socket: message failed');
            roomSocket.close('SERVER_ERROR');
          }
        });
      });

      socket.on('close', () => {
        clearTimeout(joinTimer);
        if (isClosed) return;
        isClosed = true;
        session.closed(undefined);
      });
    }

    /** Closes the socket once its login has ended; a failed check (database down) keeps it. */
    function watchSession(socket: WebSocket, roomSocket: RoomSocket<Reason>, claims: Claims, log: FastifyBaseLogger) {
      let isChecking = false;
      sessionChecks.set(socket, async () => {
        if (isChecking) return; // a slow check is not stacked up ping after ping
        isChecking = true;
        try {
          if (!(await protocol.isSessionCurrent(claims))) roomSocket.close('SIGNED_OUT');
        } catch (error) {
          log.warn({ err: error }, 'room socket: session check failed; the socket stays');
        } finally {
          isChecking = false;
        }
      });
    }
  }

  return { pubsub, heartbeatMs: options.heartbeatMs, route };
}

/** A WebSocket message's bytes, whichever of its three shapes `ws` delivered. */
export function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Allows `burst` at once and `perSecond` sustained: each call takes one, or says there is none left. */
export function createTokenBucket(perSecond: number, burst: number): () => boolean {
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
