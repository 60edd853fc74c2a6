/**
 * Which Janus serves each meeting room (decision 037, "Several Janus servers"). Every participant
 * holds its room's server while it is connected to it, and taking a hold is one atomic step in a
 * store every app instance shares (Redis: redis-room-servers.ts; one instance: memory, below), so
 * people who reach different instances meet on one server and a room never runs on two at once.
 *
 * The rules, the same in both stores (one contract suite runs on both, room-servers.test.ts):
 * - A room that someone holds keeps its server. A joiner who cannot reach that server gets no
 *   hold (the hub closes it with MEDIA_UNAVAILABLE and the page retries): the people on that
 *   server may still be there, and a second server would split the room.
 * - A room nobody holds (new, or its last holder left, or every holder's instance stopped
 *   refreshing) gets the reachable server with the fewest held rooms; a tie goes to the first in
 *   the joiner's list (JANUS_URL's order). So once a server fails and its rooms' people have been
 *   closed (and let go), the next joiner moves the room to a server that works.
 */
export type HoldRequest = {
  roomId: string;
  /** One hold per participant: our participant id. */
  holderId: string;
  /** The servers the caller can reach now, in its order of preference for a tie. */
  reachable: readonly string[];
  /**
   * The store let the hold go (its refreshes stopped arriving for longer than its lifetime, and
   * the room may have moved since): the holder must leave its server.
   */
  onLost: () => void;
};

export interface RoomServers {
  /** The room's server, now held for `holderId`; undefined when none of `reachable` may serve it. */
  hold(request: HoldRequest): Promise<string | undefined>;
  /** Lets a hold go; never throws (a hold the store did not hear about expires by itself). */
  release(roomId: string, holderId: string): Promise<void>;
  /** How many held rooms each server has now: what a new room's server is chosen from. */
  roomsPerServer(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** The server for a room nobody holds: the reachable one with the fewest rooms, the first of a tie. */
export function chooseServer(reachable: readonly string[], rooms: Record<string, number>): string | undefined {
  let chosen: string | undefined;
  for (const server of reachable) {
    if (chosen === undefined || (rooms[server] ?? 0) < (rooms[chosen] ?? 0)) chosen = server;
  }
  return chosen;
}

/**
 * One instance: holds in memory. Nothing expires (holds die with the process, with the sockets),
 * so `onLost` is never called.
 */
export function createMemoryRoomServers(): RoomServers {
  const rooms = new Map<string, { server: string; holders: Set<string> }>();
  const roomsPerServer = () => {
    const counts: Record<string, number> = {};
    for (const { server } of rooms.values()) counts[server] = (counts[server] ?? 0) + 1;
    return counts;
  };
  return {
    async hold({ roomId, holderId, reachable }) {
      let room = rooms.get(roomId);
      if (room && !reachable.includes(room.server)) return undefined;
      if (!room) {
        const server = chooseServer(reachable, roomsPerServer());
        if (server === undefined) return undefined;
        rooms.set(roomId, (room = { server, holders: new Set() }));
      }
      room.holders.add(holderId);
      return room.server;
    },
    async release(roomId, holderId) {
      const room = rooms.get(roomId);
      if (room?.holders.delete(holderId) && room.holders.size === 0) rooms.delete(roomId);
    },
    roomsPerServer: async () => roomsPerServer(),
    async close() {
      rooms.clear();
    },
  };
}
