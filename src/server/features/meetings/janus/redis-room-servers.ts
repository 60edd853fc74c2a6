import { Redis } from 'ioredis';
import { connectOnce, quit } from '../../../realtime/redis-pubsub.ts';
import { REDIS_NOW } from '../../../realtime/redis-presence.ts';
import type { RoomServers } from './room-servers.ts';

/**
 * The room-to-Janus records in Redis, shared by every app instance (decision 037, "Several Janus
 * servers"): one Lua script per call, so choosing a room's server and holding it is one atomic
 * step across instances; time is Redis's own. The rules are room-servers.ts's, step for step.
 *
 * A hold lives `holdTtlMs` unless refreshed: this store refreshes its own holds every third of
 * that, so the holds of an instance that died go with it and its rooms can move.
 */
export type RedisRoomServersOptions = {
  url: string;
  /** Prefix of every key, shared with the meetings' keys (`studyhall:` by default). */
  namespace: string;
  holdTtlMs?: number;
  /** How often this store refreshes its holds: a third of their lifetime unless a test stalls it. */
  refreshEveryMs?: number;
  /** Connection problems and failed refreshes (ioredis reconnects by itself); the default is stderr. */
  onError?: (error: Error) => void;
};

export const DEFAULT_HOLD_TTL_MS = 30_000;

// KEYS: room -> server (hash), room -> when its last hold expires (sorted set, ms), this room's
// holders (sorted set: holder -> expiry ms). Rooms whose every hold expired are forgotten first.
const SCRIPT_HEAD = `
local servers, expiries, holders = KEYS[1], KEYS[2], KEYS[3]
${REDIS_NOW}for _, stale in ipairs(redis.call('ZRANGEBYSCORE', expiries, '-inf', now)) do redis.call('HDEL', servers, stale) end
redis.call('ZREMRANGEBYSCORE', expiries, '-inf', now)
redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
local function forget(room)
  redis.call('HDEL', servers, room)
  redis.call('ZREM', expiries, room)
  redis.call('DEL', holders)
end
-- Held rooms per server: what a new room's server is chosen from.
local function roomCounts()
  local rooms = {}
  local all = redis.call('HGETALL', servers)
  for i = 2, #all, 2 do rooms[all[i]] = (rooms[all[i]] or 0) + 1 end
  return rooms
end
local function keep(room, ttl)
  redis.call('PEXPIRE', holders, ttl * 2)
  local expiry = tonumber(redis.call('ZSCORE', expiries, room) or 0)
  if expiry < now + ttl then redis.call('ZADD', expiries, now + ttl, room) end
end
`;

// ARGV: room, holder, ttl, reachable servers in order. Returns the server, or nil.
const HOLD_SCRIPT = `${SCRIPT_HEAD}
local room, holder, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local server = redis.call('HGET', servers, room)
if server and redis.call('ZCARD', holders) == 0 then
  forget(room)
  server = false
end
if server then
  local isReachable = false
  for i = 4, #ARGV do if ARGV[i] == server then isReachable = true end end
  if not isReachable then return false end
else
  local rooms = roomCounts()
  for i = 4, #ARGV do
    if not server or (rooms[ARGV[i]] or 0) < (rooms[server] or 0) then server = ARGV[i] end
  end
  if not server then return false end
  redis.call('HSET', servers, room, server)
end
redis.call('ZADD', holders, now + ttl, holder)
keep(room, ttl)
return server
`;

// ARGV: room, holder.
const RELEASE_SCRIPT = `${SCRIPT_HEAD}
redis.call('ZREM', holders, ARGV[2])
if redis.call('ZCARD', holders) == 0 then forget(ARGV[1]) end
return 1
`;

// ARGV: room, ttl, holders... Returns the holders the store no longer has.
const REFRESH_SCRIPT = `${SCRIPT_HEAD}
local room, ttl = ARGV[1], tonumber(ARGV[2])
local lost = {}
for i = 3, #ARGV do
  if redis.call('ZSCORE', holders, ARGV[i]) then
    redis.call('ZADD', holders, 'XX', now + ttl, ARGV[i])
  else
    table.insert(lost, ARGV[i])
  end
end
if redis.call('ZCARD', holders) == 0 then forget(room) else keep(room, ttl) end
return lost
`;

// No ARGV. Returns server, rooms, server, rooms...
const COUNT_SCRIPT = `${SCRIPT_HEAD}
local rooms = roomCounts()
local reply = {}
for server, count in pairs(rooms) do
  table.insert(reply, server)
  table.insert(reply, count)
end
return reply
`;

export async function createRedisRoomServers(options: RedisRoomServersOptions): Promise<RoomServers> {
  const ttl = options.holdTtlMs ?? DEFAULT_HOLD_TTL_MS;
  const reportError = options.onError ?? ((error: Error) => console.error(`Redis (Janus rooms): ${error.message}`));
  const redis = new Redis(options.url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 3 });
  try {
    await connectOnce(redis);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  let isClosing = false;
  redis.on('error', (error: Error) => {
    if (!isClosing) reportError(error);
  });

  // One hash tag for every key: a script's keys must share a slot, should this meet a Redis Cluster.
  const base = `${options.namespace}{janus-rooms}`;
  const run = (script: string, roomId: string, args: (string | number)[]) =>
    redis.eval(script, 3, `${base}:server`, `${base}:expiry`, `${base}:holders:${roomId}`, ...args);

  /** This instance's holds, per room: what the refresh keeps alive, and whom to tell of a lost one. */
  const holds = new Map<string, Map<string, () => void>>();

  async function refresh() {
    for (const [roomId, holders] of holds) {
      try {
        const lost = (await run(REFRESH_SCRIPT, roomId, [roomId, ttl, ...holders.keys()])) as string[];
        for (const holderId of lost) {
          const onLost = holders.get(holderId);
          holders.delete(holderId);
          onLost?.();
        }
        if (holders.size === 0) holds.delete(roomId);
      } catch (error) {
        reportError(error as Error);
      }
    }
  }
  let isRefreshing = false;
  const refreshTimer = setInterval(
    () => {
      if (isRefreshing) return;
      isRefreshing = true;
      void refresh().finally(() => (isRefreshing = false));
    },
    options.refreshEveryMs ?? ttl / 3,
  );
  refreshTimer.unref();

  return {
    async hold({ roomId, holderId, reachable, onLost }) {
      const server = (await run(HOLD_SCRIPT, roomId, [roomId, holderId, ttl, ...reachable])) as string | null;
      if (server === null) return undefined;
      let holders = holds.get(roomId);
      if (!holders) holds.set(roomId, (holders = new Map<string, () => void>()));
      holders.set(holderId, onLost);
      return server;
    },
    async release(roomId, holderId) {
      // Forgotten here first: a release that does not reach Redis is not refreshed, so it expires.
      const holders = holds.get(roomId);
      if (!holders?.delete(holderId)) return;
      if (holders.size === 0) holds.delete(roomId);
      try {
        await run(RELEASE_SCRIPT, roomId, [roomId, holderId]);
      } catch (error) {
        reportError(error as Error);
      }
    },
    async roomsPerServer() {
      const reply = (await run(COUNT_SCRIPT, '', [])) as (string | number)[];
      const counts: Record<string, number> = {};
      for (let index = 0; index < reply.length; index += 2) counts[String(reply[index])] = Number(reply[index + 1]);
      return counts;
    },
    async close() {
      if (isClosing) return;
      isClosing = true;
      clearInterval(refreshTimer);
      holds.clear();
      await quit(redis);
    },
  };
}
