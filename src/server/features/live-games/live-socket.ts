import type { FastifyBaseLogger } from 'fastify';
import {
  LIVE_CLOSE_MESSAGES,
  LIVE_GAME_CLOSE_CODES,
  LIVE_GAME_LIMITS,
  LIVE_GAME_PROTOCOL_VERSION,
  LIVE_GAME_SOCKET_PATH,
  liveClientMessageSchema,
  type LiveCloseReason,
  type LiveDelivery,
  type LiveGameErrorCode,
  type LiveServerMessage,
  type LiveTokenClaims,
} from '#shared/live-games';
import { liveGameSocket } from '#shared/contract/live-games';
import type { PresenceEntry, PresenceEvent } from '../../realtime/presence.ts';
import { roomPresence } from '../../realtime/presence.ts';
import { createRoomHub, SEAT_REFUSALS, type RoomMember } from '../../realtime/room-hub.ts';
import { socketLimits, type RoomSocket, type RoomTransport, type SocketLimits } from '../../realtime/room-socket.ts';
import type { LiveActor, LiveGamePlay, PlayOutcome } from './play.ts';

/**
 * The live game's socket (issue 34, decisions 065 and 066): the game's protocol on the room
 * transport. The room is the game; the seats are presence of scope `live` (a player's seat waits
 * a minute for a locked phone or a reload to come back with `?resume=`); the game's state is the
 * database's (play.ts referees). What a call to play returns is published on the room's channel
 * after its commit, as one message, and each instance hands every member what is for them: the
 * hosts, everyone, or one player's every socket. Each instance holding someone in the game arms a
 * timer at the open question's deadline and asks play to close it; one closes, the others change nothing.
 */

type LiveEntry = PresenceEntry & { name: string };

/** What travels on the game's channel: the deliveries of one call to play, in order. */
type LiveRoomMessage = { kind: 'live'; deliveries: LiveDelivery[] };

type LiveLocal = {
  send(message: LiveServerMessage): void;
  /** The welcome has gone: until then the room's messages wait, so none comes before it. */
  isWelcomed: boolean;
  waiting: LiveServerMessage[];
  /** The game ended: the socket closes (GAME_ENDED) once its last messages have gone. */
  hasEnded: boolean;
  /** Closes the socket with GAME_ENDED. */
  end(): void;
};

type LiveMember = RoomMember<LiveEntry, LiveLocal, LiveRoomMessage>;

/** How often the hosts' answer count is sent while answers come in. */
const COUNT_EVERY_MS = 150;

export type LiveSocketOptions = {
  play: LiveGamePlay;
  authenticate(token: string): Promise<LiveTokenClaims | 'TOKEN_EXPIRED' | 'FORBIDDEN'>;
  isSessionCurrent(claims: LiveTokenClaims): Promise<boolean>;
  log: FastifyBaseLogger;
  roomSize?: number;
  resumeGraceMs?: number;
  joinTimeoutMs?: number;
  limits?: Partial<SocketLimits>;
  /**
   * Slack after a deadline before closing: the database's clock must have passed it, and answers
   * received in time on another instance, still in its batches, get in first (above their p99).
   */
  closeSlackMs?: number;
};

/** How the socket closes when play refuses the join. */
const joinRefusal: Partial<Record<LiveGameErrorCode, LiveCloseReason>> = {
  PLAYER_REMOVED: 'REMOVED',
  GAME_ENDED: 'GAME_ENDED',
};

const isFor = (member: LiveMember, delivery: LiveDelivery) =>
  delivery.to === 'everyone' ||
  (delivery.to === 'hosts'
    ? member.identity.host
    : !member.identity.host && member.identity.userId === delivery.studentId);

export function registerLiveGameSocket(transport: RoomTransport, options: LiveSocketOptions): void {
  const { play, log } = options;
  const closeSlackMs = options.closeSlackMs ?? 100;
  /** Per game on this instance: the deadline armed, and its timer. */
  const deadlines = new Map<string, { at: string; timer: NodeJS.Timeout }>();

  const hub = createRoomHub<LiveEntry, LiveRoomMessage, LiveLocal>({
    pubsub: transport.pubsub,
    presence: roomPresence<LiveEntry>(transport.pubsub, 'live'),
    log,
    heartbeatMs: transport.heartbeatMs,
    resumeGraceMs: options.resumeGraceMs ?? LIVE_GAME_LIMITS.resumeGraceMs,
    deliver(member, message: PresenceEvent<LiveEntry> | LiveRoomMessage) {
      // Seats coming and going are the room layer's; the game tells its own joins (player-joined).
      if (message.kind !== 'live') return;
      for (const delivery of message.deliveries) {
        watchDeadline(member.identity.roomId, delivery.message);
        if (!isFor(member, delivery)) continue;
        hand(member, delivery.message);
        // The player a host removed: told, then their socket closes (and their seat goes).
        if (delivery.message.type === 'removed') member.drop('REMOVED');
        if (delivery.message.type === 'ended') member.local.hasEnded = true;
      }
      // The game is over: once the podium and each player's final score have gone (the same
      // message), nothing more will come, so the socket closes with GAME_ENDED (the page keeps the
      // podium and does not come back). A member still joining closes after its welcome.
      if (member.local.hasEnded && member.local.isWelcomed) member.local.end();
    },
  });

  function hand(member: LiveMember, message: LiveServerMessage) {
    if (member.local.isWelcomed) member.local.send(message);
    else member.local.waiting.push(message);
  }

  /** Arms (or moves, or clears) this instance's timer for the game's open question. */
  function watchDeadline(gameId: string, message: LiveServerMessage) {
    if (message.type === 'question-opened' || message.type === 'resumed' || message.type === 'time-added') {
      arm(gameId, message.deadline);
    } else if (message.type === 'question-closed' || message.type === 'paused' || message.type === 'ended') {
      disarm(gameId);
    }
  }

  function arm(gameId: string, deadline: string) {
    if (deadlines.get(gameId)?.at === deadline) return;
    disarm(gameId);
    const delayMs = Math.max(0, Date.parse(deadline) - Date.now()) + closeSlackMs;
    const timer = setTimeout(() => {
      deadlines.delete(gameId);
      void play
        .closeIfDue(gameId)
        .then((outcome) => publish(gameId, outcome))
        .catch((error: unknown) => log.warn({ err: error, gameId }, 'live game: could not close a question'));
    }, delayMs);
    timer.unref();
    deadlines.set(gameId, { at: deadline, timer });
  }

  function disarm(gameId: string) {
    const armed = deadlines.get(gameId);
    if (armed) clearTimeout(armed.timer);
    deadlines.delete(gameId);
  }

  /** Per game on this instance: a count for the hosts is on its way. */
  const countsPending = new Set<string>();

  /**
   * The hosts' "18 of 27" after answers on this instance, at most once per COUNT_EVERY_MS per
   * game: 300 answers in two seconds make a handful of counts, not 300. Each instance counts after
   * its own answers, so the last count the hosts get includes every acknowledged answer.
   */
  function countSoon(gameId: string) {
    if (countsPending.has(gameId)) return;
    countsPending.add(gameId);
    const timer = setTimeout(() => {
      countsPending.delete(gameId);
      void play
        .answerCount(gameId)
        .then((outcome) => publish(gameId, outcome))
        .catch((error: unknown) => log.warn({ err: error, gameId }, 'live game: could not count the answers'));
    }, COUNT_EVERY_MS);
    timer.unref();
  }

  /** A call's deliveries, after its commit, as one message on the game's channel. */
  async function publish(gameId: string, outcome: PlayOutcome) {
    if (outcome.deliveries.length > 0) await hub.broadcast(gameId, { kind: 'live', deliveries: outcome.deliveries });
  }

  transport.route<LiveTokenClaims, LiveCloseReason>({
    path: LIVE_GAME_SOCKET_PATH,
    // The room token in the address is the credential, checked before the upgrade (decision 065).
    config: { policy: { caller: 'live-token', touches: ['live-game-room'] }, endpoint: liveGameSocket },
    upgradeRequired: 'This address is for live game sockets only',
    closeCodes: LIVE_GAME_CLOSE_CODES,
    closeMessages: LIVE_CLOSE_MESSAGES,
    authenticate: options.authenticate,
    isSessionCurrent: options.isSessionCurrent,
    limits: socketLimits(LIVE_GAME_LIMITS, options.limits),
    joinTimeoutMs: options.joinTimeoutMs ?? LIVE_GAME_LIMITS.joinTimeoutMs,
    resumes: true,
    open: (socket, claims, { resumeId }) => openLiveSocket(socket, claims, resumeId),
    shutDown: async () => {
      for (const gameId of [...deadlines.keys()]) disarm(gameId);
      await hub.close();
    },
  });

  function openLiveSocket(socket: RoomSocket<LiveCloseReason>, claims: LiveTokenClaims, resumeId: string | undefined) {
    const gameId = claims.room;
    const actor: LiveActor = { id: claims.sub, role: claims.role };
    // Only a teacher hosts, whatever a token says; play checks they teach the class.
    const isHost = claims.host && claims.role === 'teacher';
    let member: LiveMember | undefined;

    async function handleJoin(parsed: unknown) {
      const version = (parsed as { protocolVersion?: unknown } | null)?.protocolVersion;
      if ((parsed as { type?: unknown } | null)?.type !== 'join') return socket.close('BAD_MESSAGE');
      if (version !== LIVE_GAME_PROTOCOL_VERSION) return socket.close('CLIENT_TOO_OLD');
      const local: LiveLocal = {
        send: (message) => socket.send(message),
        isWelcomed: false,
        waiting: [],
        hasEnded: false,
        end: () => socket.close('GAME_ENDED'),
      };
      const joining = hub.admit(socket, { userId: claims.sub, roomId: gameId, host: isHost }, local, { resumeId });
      member = joining;
      // The seat first, so the room's messages are heard (and held) before the welcome is read.
      const seat = await joining.join({
        data: { name: claims.name },
        limit: options.roomSize ?? LIVE_GAME_LIMITS.roomSize,
        seated: ({ entry }) => socket.send({ type: 'seated', seatId: entry.id } satisfies LiveServerMessage),
      });
      if (seat !== 'joined') return socket.close(SEAT_REFUSALS[seat]);
      const joined = isHost ? await play.joinAsHost(actor, gameId) : await play.joinAsPlayer(actor, gameId);
      if (joined.refused || !joined.welcome) return socket.close(joinRefusal[joined.refused!] ?? 'FORBIDDEN');
      socket.send(joined.welcome);
      local.isWelcomed = true;
      // What came meanwhile may repeat the welcome: pages apply the game's messages by question index.
      for (const message of local.waiting.splice(0)) socket.send(message);
      socket.joined();
      await publish(gameId, joined);
      const welcome = joined.welcome;
      // A game that ended before or while this page joined: the welcome (or what followed it) was its last word.
      if (local.hasEnded || ('game' in welcome && welcome.game.state === 'ended')) return local.end();
      const open = welcome.type === 'host-welcome' || welcome.type === 'player-welcome' ? welcome.question : null;
      if (open && !(welcome as { paused?: unknown }).paused) {
        // A sweep: nobody may have been here at the deadline to close it.
        if (Date.parse(open.deadline) <= Date.now()) await publish(gameId, await play.closeIfDue(gameId));
        else arm(gameId, open.deadline);
      }
    }

    async function handleMessage(parsed: unknown, receivedAt: Date) {
      const message = liveClientMessageSchema.safeParse(parsed);
      if (!message.success) return socket.close('BAD_MESSAGE');
      const current = message.data;
      if (current.type === 'leave') return socket.close('LEFT');
      let outcome: PlayOutcome;
      if (current.type === 'answer') {
        outcome = await play.answer(actor, gameId, current, receivedAt, { countsForHosts: false });
        // The acknowledgement goes straight back on this socket (a person has one seat): no trip
        // through the room's channel for every answer. The hosts' count follows, coalesced.
        for (const delivery of outcome.deliveries) socket.send(delivery.message);
        if (outcome.refused) socket.send({ type: 'error', code: outcome.refused } satisfies LiveServerMessage);
        else countSoon(gameId);
        return;
      } else {
        if (!isHost) return socket.send({ type: 'error', code: 'NOT_A_HOST' } satisfies LiveServerMessage);
        // A host's power lasts as long as their sign-in (as in meetings).
        if (!(await options.isSessionCurrent(claims))) return socket.close('SIGNED_OUT');
        outcome = await play.host(actor, gameId, current);
      }
      if (outcome.refused) socket.send({ type: 'error', code: outcome.refused } satisfies LiveServerMessage);
      await publish(gameId, outcome);
    }

    return {
      // Messages come one at a time: a second one is read only once the join is done (or refused and closed).
      message: (parsed: unknown, { receivedAt }: { receivedAt: Date }) =>
        member ? handleMessage(parsed, receivedAt) : handleJoin(parsed),
      // Gone without a word (a locked phone, a reload): the seat waits for the page to come back.
      closed: (reason: string | undefined) => void (reason === undefined ? member?.disconnect() : member?.leave()),
    };
  }
}
