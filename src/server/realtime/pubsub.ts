import type { LeaveReason, MediaState, Participant } from '#shared/meetings';

/**
 * What app instances share for meetings: messages on channels, and the roster of
 * each room (who is in it, for the size limit and the welcome list). In-process
 * for one instance; Redis (redis-pubsub.ts) when several run behind a load balancer.
 */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once messages on the channel are being delivered; the result stops them. */
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /** Room membership, kept where the messages flow so every instance sees one roster. */
  readonly roster: RoomRoster;
  close(): Promise<void>;
}

export type Unsubscribe = () => Promise<void>;

/** The channel of one room: its roster events and the hub's relays and chat. */
export const roomChannel = (roomId: string) => `room:${roomId}`;

/** One participant as the roster keeps it: what others see, plus who and where. */
export type RosterEntry = Participant & { userId: string; instanceId: string };

/**
 * Published on the room's channel by the roster operations themselves, atomically
 * with the change, numbered by a per-room sequence: a joiner's snapshot has a
 * sequence too, so events already reflected in it are recognised and skipped.
 */
export type RosterEvent =
  | { kind: 'joined'; seq: number; participant: RosterEntry }
  | { kind: 'left'; seq: number; participantId: string; reason: LeaveReason }
  | { kind: 'media'; seq: number; participantId: string; media: MediaState }
  | { kind: 'hand'; seq: number; participantId: string; hand: number | null }
  | { kind: 'hands-lowered'; seq: number; by: string }
  | { kind: 'lock'; seq: number; locked: boolean; by: string };

export type ClaimResult =
  | { outcome: 'joined'; seq: number; others: RosterEntry[]; locked: boolean }
  /** `removed`: a host removed this user (decision 038); `locked`: a non-host while the room is locked. */
  | { outcome: 'full' | 'removed' | 'locked' };

/** What removing a participant did: `host` (hosts are not removed) and `gone` change nothing. */
export type RemoveOutcome = 'removed' | 'host' | 'gone';

export interface RoomRoster {
  /**
   * Atomically: forget entries whose heartbeat stopped, replace the same user's
   * earlier entry (one seat per person), refuse when `limit` others are in, add.
   * Refused first: a user removed from the room, then a non-host while it is locked who was not in the room when it was locked.
   */
  claim(roomId: string, entry: RosterEntry, limit: number): Promise<ClaimResult>;
  /** Removes a participant (no event when it was already gone). */
  release(roomId: string, participantId: string, reason: LeaveReason): Promise<void>;
  setMedia(roomId: string, participantId: string, media: MediaState): Promise<void>;
  /** Heartbeat of one instance's participants in a room; returns those the roster no longer holds. */
  refresh(roomId: string, participantIds: string[]): Promise<string[]>;
  /**
   * Moderation (decision 038). Removes a participant (reason `removed`) and keeps their user out
   * of the room for `forMs`, whatever token they bring; hosts are not removed.
   */
  remove(roomId: string, participantId: string, forMs: number): Promise<RemoveOutcome>;
  /**
   * Locks or unlocks the room; a lock lasts while anyone is in the room. Those in the room when it
   * was locked may join again (a reload, or a page reconnecting); nobody else but hosts.
   */
  setLocked(roomId: string, locked: boolean, by: string): Promise<void>;
  /** Raises (numbered by the room's sequence, so hands keep their order) or lowers one hand. */
  setHand(roomId: string, participantId: string, raised: boolean): Promise<void>;
  lowerHands(roomId: string, by: string): Promise<void>;
}

/** One process: a Map of channels and a Map of rooms. Delivery is asynchronous, in publish order. */
export function createInProcessPubSub(): PubSub {
  const channels = new Map<string, Set<(message: string) => void>>();
  /** `lockedIn`: while locked, the users in the room when it was locked (they may come back). */
  const rooms = new Map<
    string,
    { members: Map<string, RosterEntry>; seq: number; locked: boolean; lockedIn: ReadonlySet<string> }
  >();
  /** Per room: removed user id → until when (ms); outlives the room's members. */
  const removed = new Map<string, Map<string, number>>();
  const isRemoved = (roomId: string, userId: string) => (removed.get(roomId)?.get(userId) ?? 0) > Date.now();
  let isClosed = false;

  const deliver = (channel: string, message: string) => {
    const handlers = channels.get(channel);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      queueMicrotask(() => {
        if (handlers.has(handler)) handler(message);
      });
    }
  };
  const publishEvent = (roomId: string, event: RosterEvent) => deliver(roomChannel(roomId), JSON.stringify(event));
  const room = (roomId: string) => {
    let found = rooms.get(roomId);
    if (!found) rooms.set(roomId, (found = { members: new Map(), seq: 0, locked: false, lockedIn: new Set() }));
    return found;
  };
  const forgetIfEmpty = (roomId: string) => {
    if (rooms.get(roomId)?.members.size === 0) rooms.delete(roomId);
  };
  const removeMember = (roomId: string, participantId: string, reason: LeaveReason) => {
    const found = rooms.get(roomId);
    if (!found?.members.delete(participantId)) return;
    publishEvent(roomId, { kind: 'left', seq: ++found.seq, participantId, reason });
  };

  const roster: RoomRoster = {
    async claim(roomId, entry, limit) {
      if (isRemoved(roomId, entry.userId)) return { outcome: 'removed' };
      const existing = rooms.get(roomId);
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
      const seq = ++found.seq;
      publishEvent(roomId, { kind: 'joined', seq, participant: entry });
      return { outcome: 'joined', seq, others, locked: found.locked };
    },
    async release(roomId, participantId, reason) {
      removeMember(roomId, participantId, reason);
      forgetIfEmpty(roomId);
    },
    async setMedia(roomId, participantId, media) {
      const found = rooms.get(roomId);
      const entry = found?.members.get(participantId);
      if (!found || !entry) return;
      found.members.set(participantId, { ...entry, media });
      publishEvent(roomId, { kind: 'media', seq: ++found.seq, participantId, media });
    },
    async refresh(roomId, participantIds) {
      const members = rooms.get(roomId)?.members;
      return participantIds.filter((id) => !members?.has(id));
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
      publishEvent(roomId, { kind: 'lock', seq: ++found.seq, locked, by });
    },
    async setHand(roomId, participantId, raised) {
      const found = rooms.get(roomId);
      const entry = found?.members.get(participantId);
      if (!found || !entry) return;
      const seq = ++found.seq;
      const hand = raised ? (entry.hand ?? seq) : null;
      found.members.set(participantId, { ...entry, hand });
      publishEvent(roomId, { kind: 'hand', seq, participantId, hand });
    },
    async lowerHands(roomId, by) {
      const found = rooms.get(roomId);
      if (!found) return;
      for (const [id, entry] of found.members) found.members.set(id, { ...entry, hand: null });
      publishEvent(roomId, { kind: 'hands-lowered', seq: ++found.seq, by });
    },
  };

  return {
    roster,
    async publish(channel, message) {
      if (isClosed) throw new Error('The pub/sub bus is closed');
      deliver(channel, message);
    },
    async subscribe(channel, handler) {
      if (isClosed) throw new Error('The pub/sub bus is closed');
      // A wrapper per subscription, so one handler subscribed twice is two subscriptions.
      const subscription = (message: string) => handler(message);
      let handlers = channels.get(channel);
      if (!handlers) channels.set(channel, (handlers = new Set()));
      handlers.add(subscription);
      return async () => {
        handlers.delete(subscription);
        if (handlers.size === 0 && channels.get(channel) === handlers) channels.delete(channel);
      };
    },
    async close() {
      isClosed = true;
      channels.clear();
      rooms.clear();
      removed.clear();
    },
  };
}

/** The configured bus: Redis when REDIS_URL is set (several instances), otherwise in-process. */
export async function createPubSub(
  config: { redisUrl: string | undefined },
  options: { onError?: (error: Error) => void } = {},
): Promise<PubSub> {
  if (!config.redisUrl) return createInProcessPubSub();
  const { createRedisPubSub } = await import('./redis-pubsub.ts');
  return createRedisPubSub({ url: config.redisUrl, onError: options.onError });
}
