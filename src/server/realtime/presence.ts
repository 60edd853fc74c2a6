import type { RoomLeaveReason } from '#shared/rooms';
import { roomChannel, type PubSub } from './pubsub.ts';
import { createRedisPresence } from './redis-presence.ts';

/**
 * Who is in each room of one protocol (decision 065): the seats, kept where the messages flow, so
 * every instance sees one roster. A seat is claimed atomically (the room's size, one seat per
 * person, removed people and locked rooms refused in the same step) and every change is published
 * on the room's channel in that step, numbered by the room's sequence: a joiner's snapshot carries
 * the sequence too, so events it already reflects are recognised and skipped (room-hub.ts).
 *
 * A protocol keeps its own public data in the entries (a meeting's name, media and hand) and may
 * change it with operations of its own (`run`), given in Lua for Redis and as a function for the
 * in-process bus, each running atomically with the room's seats.
 */

/** One seat: the layer's fields; a protocol adds its own (what the others see of the person). */
export type PresenceEntry = {
  /** The seat's id (random; what the others know the person by). */
  id: string;
  userId: string;
  /** The app instance holding the person's socket (the seat is its to refresh and give back). */
  instanceId: string;
  /** Runs the room: never refused by a lock, never removed. */
  host: boolean;
};

/** The layer's events on a room's channel; a protocol's operations publish kinds of their own, also with `seq`. */
export type PresenceEvent<Entry extends PresenceEntry = PresenceEntry> =
  | { kind: 'joined'; seq: number; participant: Entry }
  | { kind: 'left'; seq: number; participantId: string; reason: RoomLeaveReason }
  /** A seat taken back within its grace (a reconnect with `?resume=`): now `participant`, on `participant.instanceId`. */
  | { kind: 'resumed'; seq: number; participant: Entry }
  | { kind: 'lock'; seq: number; locked: boolean; by: string };

export type ClaimResult<Entry extends PresenceEntry> =
  /** `resumed`: the seat asked for was still this user's and was taken back (no `joined` event). */
  | { outcome: 'joined'; seq: number; others: Entry[]; locked: boolean; resumed?: true }
  /** `removed`: a host removed this user; `locked`: not a host, and not in the room when it was locked. */
  | { outcome: 'full' | 'removed' | 'locked' };

/** What removing a participant did: `host` (hosts are not removed) and `gone` change nothing. */
export type RemoveOutcome = 'removed' | 'host' | 'gone';

export type ClaimOptions = {
  /**
   * The seat a reconnecting page held (its participant id): taken back, same id, when it is still
   * this user's; otherwise the claim goes on as a new one with `entry.id`.
   */
  resumeId?: string;
};

/** Only the seats this instance holds: others' are left alone (and reported missing by `refresh`). */
export type OwnerOptions = { instanceId?: string };

/** A protocol's own atomic change of a room's entries (see `run`). */
export type PresenceOperation<Entry extends PresenceEntry, Result> = {
  /**
   * Lua run after the head of redis-presence.ts: its keys (`members`, `sequence`, `channel`…),
   * `now`, `left(id, reason)`; an event is numbered with `INCR sequence` and published on
   * `channel` by the script itself. ARGV[1] is the channel; `args` follow from ARGV[2].
   */
  lua: string;
  args: (string | number)[];
  /** Turns Redis's reply into the result. */
  read?: (reply: unknown) => Result;
  /** The same change on the in-process bus. */
  local: (room: LocalPresenceRoom<Entry>) => Result;
};

/** A room's seats in this process, as an operation sees them. */
export type LocalPresenceRoom<Entry extends PresenceEntry> = {
  readonly members: Map<string, Entry>;
  /** The room's next sequence number, for the event the change publishes. */
  nextSeq(): number;
  /** Publishes an event on the room's channel. */
  publish<Event extends { kind: string; seq: number }>(event: Event): void;
};

export interface RoomPresence<Entry extends PresenceEntry> {
  /** The protocol's name in keys and channels (`room` for meetings, kept from before decision 065). */
  readonly scope: string;
  /**
   * Atomically: forget seats whose heartbeat stopped, take back a resumed seat, replace the same
   * user's earlier seat (one seat per person), refuse when `limit` others are in, add. Refused
   * first: a user removed from the room, then a non-host while it is locked who was not in the
   * room when it was locked.
   */
  claim(roomId: string, entry: Entry, limit: number, options?: ClaimOptions): Promise<ClaimResult<Entry>>;
  /** Gives a seat back (no event when it was already gone, or, with `instanceId`, is another instance's). */
  release(roomId: string, participantId: string, reason: RoomLeaveReason, options?: OwnerOptions): Promise<void>;
  /** Heartbeat of one instance's seats in a room; returns those the roster no longer holds (for this instance). */
  refresh(roomId: string, participantIds: string[], options?: OwnerOptions): Promise<string[]>;
  /** Removes a participant (reason `removed`) and keeps their user out of the room for `forMs`; hosts are not removed. */
  remove(roomId: string, participantId: string, forMs: number): Promise<RemoveOutcome>;
  /**
   * Locks or unlocks the room; a lock lasts while anyone is in the room. Those in the room when it
   * was locked may join again (a reload, or a page reconnecting); nobody else but hosts.
   */
  setLocked(roomId: string, locked: boolean, by: string): Promise<void>;
  /** A protocol's own change of the room's entries, atomic with the seats. */
  run<Result>(roomId: string, operation: PresenceOperation<Entry, Result>): Promise<Result>;
}

/**
 * The seats of `scope`'s rooms on this bus: in Redis when the bus is Redis's (every instance
 * shares them), otherwise in this process (one per bus, whoever asks).
 */
export function roomPresence<Entry extends PresenceEntry>(bus: PubSub, scope: string): RoomPresence<Entry> {
  if (bus.redis) return createRedisPresence<Entry>(bus.redis, scope);
  let scopes = localPresences.get(bus);
  if (!scopes) localPresences.set(bus, (scopes = new Map<string, RoomPresence<PresenceEntry>>()));
  let presence = scopes.get(scope);
  if (!presence) scopes.set(scope, (presence = createLocalPresence(bus, scope)));
  return presence as RoomPresence<Entry>;
}

const localPresences = new WeakMap<PubSub, Map<string, RoomPresence<PresenceEntry>>>();

/** An event as a change makes it, before it is numbered. */
type PresenceEventBody<Entry extends PresenceEntry> =
  PresenceEvent<Entry> extends infer Event ? (Event extends { seq: number } ? Omit<Event, 'seq'> : never) : never;

type LocalRoom<Entry extends PresenceEntry> = {
  members: Map<string, Entry>;
  seq: number;
  locked: boolean;
  /** While locked: the users in the room when it was locked (they may come back). */
  lockedIn: ReadonlySet<string>;
};

/** One process: a Map of rooms; events are published on the bus as the change is made. */
function createLocalPresence<Entry extends PresenceEntry>(bus: PubSub, scope: string): RoomPresence<Entry> {
  const rooms = new Map<string, LocalRoom<Entry>>();
  /** Per room: removed user id → until when (ms); outlives the room's members. */
  const removed = new Map<string, Map<string, number>>();
  const isRemoved = (roomId: string, userId: string) => (removed.get(roomId)?.get(userId) ?? 0) > Date.now();

  // The in-process bus delivers as `publish` is called (before its promise settles), so events
  // keep the order of the changes; after the bus closed nobody listens any more.
  const send = (roomId: string, event: { kind: string; seq: number }) =>
    void bus.publish(roomChannel(scope, roomId), JSON.stringify(event)).catch(() => undefined);
  const publishEvent = (roomId: string, room: LocalRoom<Entry>, event: PresenceEventBody<Entry>) => {
    const seq = ++room.seq;
    send(roomId, { ...event, seq });
    return seq;
  };
  const room = (roomId: string) => {
    let found = rooms.get(roomId);
    if (!found) rooms.set(roomId, (found = { members: new Map(), seq: 0, locked: false, lockedIn: new Set() }));
    return found;
  };
  const forgetIfEmpty = (roomId: string) => {
    if (rooms.get(roomId)?.members.size === 0) rooms.delete(roomId);
  };
  const removeMember = (roomId: string, participantId: string, reason: RoomLeaveReason) => {
    const found = rooms.get(roomId);
    if (!found?.members.delete(participantId)) return;
    publishEvent(roomId, found, { kind: 'left', participantId, reason });
  };
  const isOwnedElsewhere = (entry: Entry | undefined, options: OwnerOptions | undefined) =>
    options?.instanceId !== undefined && entry !== undefined && entry.instanceId !== options.instanceId;

  return {
    scope,
    async claim(roomId, entry, limit, options = {}) {
      if (isRemoved(roomId, entry.userId)) return { outcome: 'removed' };
      const existing = rooms.get(roomId);
      const held = options.resumeId === undefined ? undefined : existing?.members.get(options.resumeId);
      if (existing && held?.userId === entry.userId) {
        const resumed = { ...entry, id: held.id };
        existing.members.set(held.id, resumed);
        const seq = publishEvent(roomId, existing, { kind: 'resumed', participant: resumed });
        const others = [...existing.members.values()].filter((member) => member.id !== held.id);
        return { outcome: 'joined', seq, others, locked: existing.locked, resumed: true };
      }
      if (existing?.locked && !entry.host && !existing.lockedIn.has(entry.userId)) return { outcome: 'locked' };
      const found = room(roomId);
      const earlier = [...found.members.values()].find((member) => member.userId === entry.userId);
      const others = [...found.members.values()].filter((member) => member !== earlier);
      if (others.length >= limit) {
        forgetIfEmpty(roomId);
        return { outcome: 'full' };
      }
      if (earlier) removeMember(roomId, earlier.id, 'replaced');
      found.members.set(entry.id, entry);
      const seq = publishEvent(roomId, found, { kind: 'joined', participant: entry });
      return { outcome: 'joined', seq, others, locked: found.locked };
    },
    async release(roomId, participantId, reason, options) {
      if (isOwnedElsewhere(rooms.get(roomId)?.members.get(participantId), options)) return;
      removeMember(roomId, participantId, reason);
      forgetIfEmpty(roomId);
    },
    async refresh(roomId, participantIds, options) {
      const members = rooms.get(roomId)?.members;
      return participantIds.filter((id) => !members?.has(id) || isOwnedElsewhere(members.get(id), options));
    },
    async remove(roomId, participantId, forMs) {
      const entry = rooms.get(roomId)?.members.get(participantId);
      if (!entry) return 'gone';
      if (entry.host) return 'host';
      let users = removed.get(roomId);
      if (!users) removed.set(roomId, (users = new Map<string, number>()));
      for (const [userId, until] of users) if (until <= Date.now()) users.delete(userId);
      users.set(entry.userId, Date.now() + forMs);
      removeMember(roomId, participantId, 'removed');
      forgetIfEmpty(roomId);
      return 'removed';
    },
    async setLocked(roomId, locked, by) {
      const found = rooms.get(roomId);
      if (!found) return;
      found.locked = locked;
      found.lockedIn = new Set(locked ? [...found.members.values()].map((member) => member.userId) : []);
      publishEvent(roomId, found, { kind: 'lock', locked, by });
    },
    async run(roomId, operation) {
      const found = rooms.get(roomId) ?? { members: new Map(), seq: 0, locked: false, lockedIn: new Set() };
      const result = operation.local({
        members: found.members,
        nextSeq: () => ++found.seq,
        publish: (event) => send(roomId, event),
      });
      // An operation on a room nobody is in leaves nothing behind (its events had no listener).
      if (found.members.size > 0 && !rooms.has(roomId)) rooms.set(roomId, found);
      return result;
    },
  };
}
