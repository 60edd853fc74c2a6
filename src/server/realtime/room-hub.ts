import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RoomCloseReason, RoomLeaveReason } from '#shared/rooms';
import type { PresenceEntry, PresenceEvent, RoomPresence } from './presence.ts';
import { roomChannel, type PubSub, type Unsubscribe } from './pubsub.ts';

/**
 * The rooms of one protocol on this instance (decision 065). Everything that crosses instances
 * goes through the bus: each room is one channel, to which an instance subscribes while it holds
 * someone in that room. Seats are claimed in the protocol's presence, which publishes its
 * joined/left events on that channel, so the room's size holds across instances; the protocol's
 * own messages travel the same channel in the same order.
 *
 * The hub owns a member's seat from claim to release: the events that arrive while the claim is
 * on its way are held and then given in order (those the claim's snapshot covers skipped), the
 * seats are kept alive by a heartbeat, a member whose seat the room let go is closed, and, for a
 * protocol that resumes, a seat outlives its socket for a grace period so that a page coming back
 * with `?resume=` is the same participant. What a message means is the protocol's (`deliver`).
 */

/** Who joins which room, as the room token says. */
export type RoomIdentity = { userId: string; roomId: string; host: boolean };

/** The hub's view of one socket: the protocol's route sends; the hub only ever closes. */
export type RoomConnection = { close(reason: RoomCloseReason): void };

/** A message on a room's channel: presence events (numbered) and the protocol's own (`kind`, no `seq`). */
export type RoomMessage = { kind: string };

export type RoomHubOptions<Entry extends PresenceEntry, Message extends RoomMessage, Local> = {
  pubsub: PubSub;
  presence: RoomPresence<Entry>;
  log: FastifyBaseLogger;
  /** How often this instance tells the presence its seats are alive (well under the seats' TTL). */
  heartbeatMs?: number;
  /**
   * How long a seat outlives a socket that went away without leaving, for its page to come back
   * with `?resume=`; 0 (meetings): a reconnect is a new participant.
   */
  resumeGraceMs?: number;
  /**
   * One message of the room, for one member that has joined: a presence event (not its own
   * leaving, which the hub handles) or one of the protocol's messages.
   */
  deliver(member: RoomMember<Entry, Local, Message>, message: PresenceEvent<Entry> | Message): void;
  /** The member leaves (any stage): let go of what the protocol holds for it, before its seat goes back. */
  leaving?(member: RoomMember<Entry, Local, Message>): Promise<void>;
};

export type JoinOutcome = 'joined' | 'full' | 'gone' | 'removed' | 'locked';

/** How a protocol's socket closes when the room refuses the seat (every protocol the same). */
export const SEAT_REFUSALS: Record<Exclude<JoinOutcome, 'joined'>, RoomCloseReason> = {
  full: 'ROOM_FULL',
  gone: 'GOING_AWAY',
  removed: 'REMOVED',
  locked: 'ROOM_LOCKED',
};

/** What a seated member is told first (the protocol's welcome). */
export type Seated<Entry extends PresenceEntry> = {
  entry: Entry;
  /** Those already seated, as the claim's snapshot has them. */
  others: Entry[];
  locked: boolean;
  /** The seat of `?resume=` was taken back: same id, and the others saw no leave or join. */
  resumed: boolean;
};

export type JoinOptions<Entry extends PresenceEntry, Refusal extends string> = {
  /** The entry's protocol fields; the hub adds id, userId, instanceId and host. */
  data: Omit<Entry, keyof PresenceEntry>;
  /** The room's size: a claim with this many others seated is refused (`full`). */
  limit: number;
  /** Runs first, before any seat is claimed; a refusal ends the join with it. */
  prepare?: () => Promise<Refusal | undefined>;
  /** Seated: what to tell the member before the room's events that came meanwhile are given. */
  seated(seated: Seated<Entry>): void;
};

/** One person connected to this instance, in one room. */
export type RoomMember<Entry extends PresenceEntry, Local, Message extends RoomMessage = RoomMessage> = {
  /** The seat's id; a resumed seat keeps its earlier one (final once seated). */
  readonly id: string;
  readonly identity: RoomIdentity;
  /** What the protocol keeps for this member. */
  readonly local: Local;
  /** Seated and hearing the room. */
  readonly isJoined: boolean;
  /** Left (or dropped, or the hub closed): nothing more is delivered. */
  readonly hasLeft: boolean;
  /** Takes a seat (or not), calls `seated`, and starts delivering the room's messages. */
  join<Refusal extends string = never>(options: JoinOptions<Entry, Refusal>): Promise<JoinOutcome | Refusal>;
  /** A protocol message on the room's channel, while seated (for every instance's members). */
  publish(message: Message): Promise<void>;
  /** Gives the seat back; safe to call at any stage and more than once. */
  leave(): Promise<void>;
  /**
   * The socket went away without leaving: with a grace (`resumeGraceMs`) the seat stays that long
   * for a page that comes back with its id; otherwise as leave().
   */
  disconnect(): Promise<void>;
  /** Closes the member's socket with `reason` and gives its seat back. */
  drop(reason: RoomCloseReason): void;
};

export type RoomHub<Entry extends PresenceEntry, Local, Message extends RoomMessage = RoomMessage> = {
  readonly presence: RoomPresence<Entry>;
  /** A member for this socket; `resumeId` (the page's `?resume=`) asks for its earlier seat back. */
  admit(
    connection: RoomConnection,
    identity: RoomIdentity,
    local: Local,
    options?: { resumeId?: string },
  ): RoomMember<Entry, Local, Message>;
  /** A protocol message on a room's channel, from the server itself (a timer, an HTTP request). */
  broadcast(roomId: string, message: Message): Promise<void>;
  /** Closes every local member's socket (GOING_AWAY) and gives their seats back (kept for resuming). */
  close(): Promise<void>;
};

export const DEFAULT_HEARTBEAT_MS = 10_000;
/** Events held for a member while its seat is being claimed (milliseconds, normally a handful). */
const MAX_PENDING_EVENTS = 1000;

/** How a member's own socket closes when the presence lets its seat go for this reason. */
const leaveCloseReason: Partial<Record<RoomLeaveReason, RoomCloseReason>> = {
  replaced: 'REPLACED',
  removed: 'REMOVED',
};

/** `parked`: its socket went away; its seat waits for a resume until the grace is over. */
type MemberState = 'new' | 'joining' | 'joined' | 'parked' | 'gone';

type LocalMember<Entry extends PresenceEntry, Local, Message extends RoomMessage> = {
  /** This socket's key in its local room (a resumed seat's id may be held here twice for a moment). */
  key: string;
  id: string;
  identity: RoomIdentity;
  connection: RoomConnection;
  local: Local;
  resumeId?: string;
  state: MemberState;
  /** Holds a seat in the presence (so leaving must give it back). */
  isSeated: boolean;
  /** Presence sequence already reflected in what this member was told. */
  seenSeq: number;
  pending: (PresenceEvent<Entry> | Message)[];
  graceTimer?: NodeJS.Timeout;
  joining?: Promise<unknown>;
  leaving?: Promise<void>;
  handle: RoomMember<Entry, Local, Message>;
};

type LocalRoom<Entry extends PresenceEntry, Local, Message extends RoomMessage> = {
  members: Map<string, LocalMember<Entry, Local, Message>>;
  subscription: Promise<Unsubscribe>;
};

/** Read through a function: leave() changes the state while join() awaits, which TypeScript cannot see. */
const hasLeft = (member: { state: MemberState }) => member.state === 'gone';

const newId = () => randomBytes(12).toString('base64url');

export function createRoomHub<Entry extends PresenceEntry, Message extends RoomMessage, Local>(
  options: RoomHubOptions<Entry, Message, Local>,
): RoomHub<Entry, Local, Message> {
  const { pubsub, presence, log } = options;
  const { scope } = presence;
  const resumeGraceMs = options.resumeGraceMs ?? 0;
  const instanceId = randomBytes(6).toString('base64url');
  const owner = { instanceId };
  const rooms = new Map<string, LocalRoom<Entry, Local, Message>>();
  let isClosed = false;
  type Member = LocalMember<Entry, Local, Message>;
  type Event = PresenceEvent<Entry> | Message;

  function enterRoom(member: Member): LocalRoom<Entry, Local, Message> {
    const { roomId } = member.identity;
    let room = rooms.get(roomId);
    if (!room) {
      const members = new Map<string, Member>();
      const subscription = pubsub.subscribe(roomChannel(scope, roomId), (message) =>
        handleBusMessage(members, message),
      );
      // Joiners await it and fail with its error; this only keeps the rejection from going unhandled.
      subscription.catch(() => undefined);
      room = { members, subscription };
      rooms.set(roomId, room);
    }
    room.members.set(member.key, member);
    return room;
  }

  function exitRoom(member: Member) {
    const { roomId } = member.identity;
    const room = rooms.get(roomId);
    if (room?.members.get(member.key) !== member) return;
    room.members.delete(member.key);
    if (room.members.size > 0) return;
    rooms.delete(roomId);
    room.subscription
      .then((unsubscribe) => unsubscribe())
      .catch((error: unknown) => log.debug({ err: error, roomId, scope }, 'room: unsubscribe failed'));
  }

  function handleBusMessage(members: Map<string, Member>, raw: string) {
    let message: Event;
    try {
      message = JSON.parse(raw) as Event;
    } catch (error) {
      log.warn({ err: error, scope }, 'room: unreadable bus message');
      return;
    }
    for (const member of [...members.values()]) deliver(member, message);
  }

  function deliver(member: Member, message: Event) {
    if (member.state === 'joining') {
      member.pending.push(message);
      if (member.pending.length > MAX_PENDING_EVENTS) dropMember(member, 'SERVER_ERROR');
      return;
    }
    if (member.state !== 'joined' && member.state !== 'parked') return;
    if ('seq' in message && typeof message.seq === 'number') {
      // Presence events: skip those the seat's snapshot (or an earlier event) already covered.
      if (message.seq <= member.seenSeq) return;
      member.seenSeq = message.seq;
      if (message.kind === 'left' && message.participantId === member.id) {
        // The presence let this seat go: the person joined again elsewhere, a host removed them,
        // or our heartbeat lapsed.
        member.isSeated = false;
        return dropMember(member, leaveCloseReason[message.reason] ?? 'SERVER_ERROR');
      }
      if (message.kind === 'resumed' && message.participant.id === member.id) {
        // Taken back by the person's new socket (on another instance): this one lets it go quietly.
        member.isSeated = false;
        return dropMember(member, 'REPLACED');
      }
    }
    if (member.state === 'joined') options.deliver(member.handle, message);
  }

  function dropMember(member: Member, reason: RoomCloseReason) {
    member.connection.close(reason);
    void leaveOnce(member, 'left');
  }

  function leaveOnce(member: Member, reason: RoomLeaveReason): Promise<void> {
    member.leaving ??= leave(member, reason);
    return member.leaving;
  }

  /** Local sockets still holding `seatId` in the room: a resume takes the seat from them first. */
  function retireLocalHolders(member: Member, seatId: string) {
    const room = rooms.get(member.identity.roomId);
    for (const other of room?.members.values() ?? []) {
      if (other === member || other.id !== seatId || other.identity.userId !== member.identity.userId) continue;
      other.isSeated = false;
      dropMember(other, 'REPLACED');
    }
  }

  async function join<Refusal extends string>(
    member: Member,
    join: JoinOptions<Entry, Refusal>,
  ): Promise<JoinOutcome | Refusal> {
    member.state = 'joining';
    if (join.prepare) {
      let refusal: Refusal | undefined;
      try {
        refusal = await join.prepare();
      } catch (error) {
        member.state = 'gone';
        throw error;
      }
      if (refusal !== undefined) {
        member.state = 'gone';
        return refusal;
      }
      // Left meanwhile, or the hub closed: leave() lets go of what prepare() took.
      if (hasLeft(member) || isClosed) return 'gone';
    }
    const { roomId, userId, host } = member.identity;
    const entry = { ...join.data, id: member.id, userId, instanceId, host } as Entry;
    const resumeId = resumeGraceMs > 0 ? member.resumeId : undefined;
    if (resumeId !== undefined) retireLocalHolders(member, resumeId);
    const room = enterRoom(member);
    let claim;
    try {
      await room.subscription;
      if (hasLeft(member)) return 'gone';
      claim = await presence.claim(roomId, entry, join.limit, { resumeId });
    } catch (error) {
      member.state = 'gone';
      exitRoom(member);
      throw error;
    }
    if (claim.outcome !== 'joined') {
      member.state = 'gone';
      exitRoom(member);
      return claim.outcome;
    }
    const resumed = claim.resumed === true;
    if (resumed) member.id = resumeId!;
    member.isSeated = true;
    // Left while the claim was on its way: leave() gives the seat back once this returns.
    if (hasLeft(member)) return 'gone';
    member.state = 'joined';
    member.seenSeq = claim.seq;
    join.seated({ entry: { ...entry, id: member.id }, others: claim.others, locked: claim.locked, resumed });
    const pending = member.pending;
    member.pending = [];
    for (const message of pending) deliver(member, message);
    return 'joined';
  }

  async function leave(member: Member, reason: RoomLeaveReason): Promise<void> {
    member.state = 'gone';
    member.pending = [];
    clearTimeout(member.graceTimer);
    exitRoom(member);
    await member.joining?.catch(() => undefined);
    await options.leaving?.(member.handle);
    if (!member.isSeated) return;
    member.isSeated = false;
    // A protocol that resumes keeps its seats through a shutdown: the pages come back elsewhere.
    if (isClosed && resumeGraceMs > 0) return;
    try {
      await presence.release(member.identity.roomId, member.id, reason, owner);
    } catch (error) {
      // The heartbeat stops with the socket, so the presence frees the seat by itself within its TTL.
      log.warn({ err: error, roomId: member.identity.roomId, scope }, 'room: could not release a seat');
    }
  }

  function disconnect(member: Member): Promise<void> {
    if (resumeGraceMs === 0 || member.state !== 'joined' || !member.isSeated || isClosed) {
      return leaveOnce(member, 'left');
    }
    member.state = 'parked';
    member.connection = { close: () => undefined };
    member.graceTimer = setTimeout(() => void leaveOnce(member, 'timeout'), resumeGraceMs);
    member.graceTimer.unref();
    return Promise.resolve();
  }

  async function heartbeat() {
    await Promise.all(
      [...rooms.entries()].map(async ([roomId, room]) => {
        const seated = [...room.members.values()].filter(
          (member) => member.isSeated && (member.state === 'joined' || member.state === 'parked'),
        );
        if (seated.length === 0) return;
        try {
          const ids = seated.map((member) => member.id);
          const missing = new Set(await presence.refresh(roomId, ids, owner));
          for (const member of seated) {
            if (!missing.has(member.id) || !member.isSeated) continue;
            member.isSeated = false;
            dropMember(member, 'SERVER_ERROR');
          }
        } catch (error) {
          log.warn({ err: error, roomId, scope }, 'room: heartbeat failed');
        }
      }),
    );
  }

  let isBeating = false;
  const heartbeatTimer = setInterval(() => {
    if (isBeating) return;
    isBeating = true;
    void heartbeat().finally(() => (isBeating = false));
  }, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  heartbeatTimer.unref();

  return {
    presence,
    admit(connection, identity, local, admitOptions = {}) {
      const member = {
        key: newId(),
        id: newId(),
        identity,
        connection,
        local,
        resumeId: admitOptions.resumeId,
        state: 'new',
        isSeated: false,
        seenSeq: 0,
        pending: [],
      } as Omit<Member, 'handle'> as Member;
      member.handle = {
        get id() {
          return member.id;
        },
        identity,
        local,
        get isJoined() {
          return member.state === 'joined';
        },
        get hasLeft() {
          return hasLeft(member);
        },
        join(joinOptions) {
          if (isClosed) {
            member.state = 'gone';
            return Promise.resolve('gone');
          }
          if (member.state !== 'new') throw new Error('join() called twice');
          const joining = join(member, joinOptions);
          member.joining = joining;
          return joining;
        },
        async publish(message) {
          if (member.state !== 'joined') return;
          await pubsub.publish(roomChannel(scope, identity.roomId), JSON.stringify(message));
        },
        leave: () => leaveOnce(member, 'left'),
        disconnect: () => disconnect(member),
        drop: (reason) => dropMember(member, reason),
      };
      return member.handle;
    },

    async broadcast(roomId, message) {
      await pubsub.publish(roomChannel(scope, roomId), JSON.stringify(message));
    },

    async close() {
      isClosed = true;
      clearInterval(heartbeatTimer);
      const members = [...rooms.values()].flatMap((room) => [...room.members.values()]);
      await Promise.all(
        members.map((member) => {
          member.connection.close('GOING_AWAY');
          return leaveOnce(member, 'left');
        }),
      );
    },
  };
}
