import { Redis } from 'ioredis';
import type { LeaveReason, MediaState } from '#shared/meetings';
import {
  roomChannel,
  type ClaimResult,
  type PubSub,
  type RemoveOutcome,
  type RoomRoster,
  type RosterEntry,
} from './pubsub.ts';

export type RedisPubSubOptions = {
  url: string;
  /** Prefix of every key and channel, so several deployments (or test runs) share one Redis. */
  namespace?: string;
  /** How long a roster entry lives without a heartbeat (an instance that died frees its seats). */
  entryTtlMs?: number;
  /** Connection problems after the start; the default writes them to stderr. */
  onError?: (error: Error) => void;
};

export const DEFAULT_NAMESPACE = 'studyhall:';
export const DEFAULT_ENTRY_TTL_MS = 30_000;
/** An idle room's sequence outlives its members, so numbers never restart under a late event. */
const SEQUENCE_TTL_SECONDS = 24 * 60 * 60;
const CONNECT_TIMEOUT_MS = 5_000;

/** Lua: `now`, Redis's own time in ms, so the instances' clocks do not matter. */
export const REDIS_NOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

// Shared head of the roster scripts. KEYS: members hash (id -> entry JSON), expiry sorted set
// (id -> ms), sequence counter, lock (the set of user ids in the room when it was locked), removed
// users (user id -> until ms). ARGV[1]: the room's channel. Time is Redis's (REDIS_NOW). Each
// change bumps the sequence and publishes its event in the same step.
const SCRIPT_HEAD = `
local members, expiry, sequence, channel = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local lock, removed = KEYS[4], KEYS[5]
${REDIS_NOW}local function left(id, reason)
  redis.call('ZREM', expiry, id)
  if redis.call('HDEL', members, id) == 1 then
    local seq = redis.call('INCR', sequence)
    redis.call('PUBLISH', channel, cjson.encode({kind = 'left', seq = seq, participantId = id, reason = reason}))
    -- A lock lasts while anyone is in the room (a replaced seat is taken again at once).
    if reason ~= 'replaced' and redis.call('HLEN', members) == 0 then redis.call('DEL', lock) end
  end
end
local function prune()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', expiry, '-inf', now)) do left(id, 'timeout') end
end
local function keep(ttl)
  redis.call('PEXPIRE', members, ttl * 2)
  redis.call('PEXPIRE', expiry, ttl * 2)
  redis.call('PEXPIRE', lock, ttl * 2)
  redis.call('EXPIRE', sequence, ${SEQUENCE_TTL_SECONDS})
end
`;

// ARGV: channel, id, userId, entry JSON, limit, ttl, host (1/0).
// Returns {'removed'}, {'locked'}, {'full'} or {'joined', seq, locked (1/0), other entries...}.
const CLAIM_SCRIPT = `${SCRIPT_HEAD}
local id, userId, entry, limit, ttl = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', removed, '-inf', now)
if redis.call('ZSCORE', removed, userId) then return {'removed'} end
prune()
local locked = redis.call('EXISTS', lock)
if locked == 1 and ARGV[7] ~= '1' and redis.call('SISMEMBER', lock, userId) == 0 then return {'locked'} end
local earlier = nil
local others = {}
local all = redis.call('HGETALL', members)
for i = 1, #all, 2 do
  if cjson.decode(all[i + 1]).userId == userId then earlier = all[i] else table.insert(others, all[i + 1]) end
end
if #others >= limit then return {'full'} end
if earlier then left(earlier, 'replaced') end
redis.call('HSET', members, id, entry)
redis.call('ZADD', expiry, now + ttl, id)
local seq = redis.call('INCR', sequence)
redis.call('PUBLISH', channel, '{"kind":"joined","seq":' .. seq .. ',"participant":' .. entry .. '}')
keep(ttl)
local reply = {'joined', seq, locked}
for _, other in ipairs(others) do table.insert(reply, other) end
return reply
`;

// ARGV: channel, id, reason.
const RELEASE_SCRIPT = `${SCRIPT_HEAD}
left(ARGV[2], ARGV[3])
return 1
`;

// ARGV: channel, id, media JSON.
const MEDIA_SCRIPT = `${SCRIPT_HEAD}
local id = ARGV[2]
local stored = redis.call('HGET', members, id)
if not stored then return 0 end
local entry = cjson.decode(stored)
entry.media = cjson.decode(ARGV[3])
redis.call('HSET', members, id, cjson.encode(entry))
local seq = redis.call('INCR', sequence)
redis.call('PUBLISH', channel, cjson.encode({kind = 'media', seq = seq, participantId = id, media = entry.media}))
return 1
`;

// ARGV: channel, ttl, ids... Returns the ids the roster no longer holds.
const REFRESH_SCRIPT = `${SCRIPT_HEAD}
local ttl = tonumber(ARGV[2])
prune()
local missing = {}
for i = 3, #ARGV do
  if redis.call('ZSCORE', expiry, ARGV[i]) then
    redis.call('ZADD', expiry, 'XX', now + ttl, ARGV[i])
  else
    table.insert(missing, ARGV[i])
  end
end
if #ARGV > 2 then keep(ttl) end
return missing
`;

// ARGV: channel, id, for ms. Returns 'removed', 'host' or 'gone'.
const REMOVE_SCRIPT = `${SCRIPT_HEAD}
local stored = redis.call('HGET', members, ARGV[2])
if not stored then return 'gone' end
local entry = cjson.decode(stored)
if entry.host then return 'host' end
local forMs = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', removed, '-inf', now)
redis.call('ZADD', removed, now + forMs, entry.userId)
if redis.call('PTTL', removed) < forMs then redis.call('PEXPIRE', removed, forMs) end
left(ARGV[2], 'removed')
return 'removed'
`;

// ARGV: channel, locked (1/0), by. Nothing in an empty room. The lock keeps the users in the room
// then, so one whose page reconnects (a reload, a new network, the video server's failover) is let back in.
const LOCK_SCRIPT = `${SCRIPT_HEAD}
if redis.call('EXISTS', members) == 0 then return 0 end
local locked = ARGV[2] == '1'
local pttl = redis.call('PTTL', members)
if pttl < 1 then pttl = 60000 end
redis.call('DEL', lock)
if locked then
  local all = redis.call('HVALS', members)
  for i = 1, #all do redis.call('SADD', lock, cjson.decode(all[i]).userId) end
  redis.call('PEXPIRE', lock, pttl)
end
local seq = redis.call('INCR', sequence)
redis.call('PUBLISH', channel, cjson.encode({kind = 'lock', seq = seq, locked = locked, by = ARGV[3]}))
return 1
`;

// ARGV: channel, id, raised (1/0). A raised hand keeps its first number.
const HAND_SCRIPT = `${SCRIPT_HEAD}
local stored = redis.call('HGET', members, ARGV[2])
if not stored then return 0 end
local entry = cjson.decode(stored)
local seq = redis.call('INCR', sequence)
if ARGV[3] == '1' then
  if entry.hand == nil or entry.hand == cjson.null then entry.hand = seq end
else
  entry.hand = cjson.null
end
redis.call('HSET', members, ARGV[2], cjson.encode(entry))
redis.call('PUBLISH', channel, cjson.encode({kind = 'hand', seq = seq, participantId = ARGV[2], hand = entry.hand}))
return 1
`;

// ARGV: channel, by.
const LOWER_HANDS_SCRIPT = `${SCRIPT_HEAD}
if redis.call('EXISTS', members) == 0 then return 0 end
local all = redis.call('HGETALL', members)
for i = 1, #all, 2 do
  local entry = cjson.decode(all[i + 1])
  if entry.hand ~= nil and entry.hand ~= cjson.null then
    entry.hand = cjson.null
    redis.call('HSET', members, all[i], cjson.encode(entry))
  end
end
local seq = redis.call('INCR', sequence)
redis.call('PUBLISH', channel, cjson.encode({kind = 'hands-lowered', seq = seq, by = ARGV[2]}))
return 1
`;

/**
 * Pub/sub and rosters on Redis: one connection for commands and publishing, one
 * for subscriptions (a subscribed connection can do nothing else). Resolves once
 * both are connected, so a wrong REDIS_URL stops the start with a clear error.
 */
export async function createRedisPubSub(options: RedisPubSubOptions): Promise<PubSub> {
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const ttl = options.entryTtlMs ?? DEFAULT_ENTRY_TTL_MS;
  const reportError = options.onError ?? ((error: Error) => console.error(`Redis (meetings): ${error.message}`));
  const connectionOptions = {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A command waits through a short outage, then fails (the sender is told) rather than hanging.
    maxRetriesPerRequest: 3,
  };
  const publisher = new Redis(options.url, connectionOptions);
  const subscriber = new Redis(options.url, connectionOptions);
  try {
    await Promise.all([connectOnce(publisher), connectOnce(subscriber)]);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw new Error(`Cannot reach Redis at ${withoutPassword(options.url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let isClosing = false;
  // From here on ioredis reconnects by itself (and resubscribes); problems are reported, not thrown.
  for (const connection of [publisher, subscriber]) {
    connection.on('error', (error: Error) => {
      if (!isClosing) reportError(error);
    });
  }

  /** Per channel: its handlers, and the SUBSCRIBE every subscriber waits for. */
  const channels = new Map<string, { handlers: Set<(message: string) => void>; ready: Promise<unknown> }>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of channels.get(channel)?.handlers ?? []) {
      try {
        handler(message);
      } catch (error) {
        reportError(error as Error);
      }
    }
  });

  const keys = (roomId: string) => {
    // The hash tag keeps one room's keys in one slot, should this ever meet a Redis Cluster.
    const base = `${namespace}room:{${roomId}}`;
    return [`${base}:members`, `${base}:expiry`, `${base}:seq`, `${base}:lock`, `${base}:removed`];
  };
  const channelOf = (roomId: string) => namespace + roomChannel(roomId);
  const run = (script: string, roomId: string, args: (string | number)[]) =>
    publisher.eval(script, 5, ...keys(roomId), channelOf(roomId), ...args);

  const roster: RoomRoster = {
    async claim(roomId: string, entry: RosterEntry, limit: number): Promise<ClaimResult> {
      const args = [entry.id, entry.userId, JSON.stringify(entry), limit, ttl, entry.host ? 1 : 0];
      const reply = (await run(CLAIM_SCRIPT, roomId, args)) as [string, ...unknown[]];
      if (reply[0] !== 'joined') return { outcome: reply[0] as 'full' | 'removed' | 'locked' };
      const [, seq, locked, ...others] = reply;
      return {
        outcome: 'joined',
        seq: Number(seq),
        locked: Number(locked) === 1,
        others: others.map((other) => JSON.parse(String(other)) as RosterEntry),
      };
    },
    async release(roomId: string, participantId: string, reason: LeaveReason) {
      await run(RELEASE_SCRIPT, roomId, [participantId, reason]);
    },
    async setMedia(roomId: string, participantId: string, media: MediaState) {
      await run(MEDIA_SCRIPT, roomId, [participantId, JSON.stringify(media)]);
    },
    async refresh(roomId: string, participantIds: string[]) {
      return ((await run(REFRESH_SCRIPT, roomId, [ttl, ...participantIds])) as string[]).map(String);
    },
    async remove(roomId, participantId, forMs) {
      return (await run(REMOVE_SCRIPT, roomId, [participantId, forMs])) as RemoveOutcome;
    },
    async setLocked(roomId, locked, by) {
      await run(LOCK_SCRIPT, roomId, [locked ? 1 : 0, by]);
    },
    async setHand(roomId, participantId, raised) {
      await run(HAND_SCRIPT, roomId, [participantId, raised ? 1 : 0]);
    },
    async lowerHands(roomId, by) {
      await run(LOWER_HANDS_SCRIPT, roomId, [by]);
    },
  };

  return {
    roster,
    async publish(logicalChannel, message) {
      await publisher.publish(namespace + logicalChannel, message);
    },
    async subscribe(logicalChannel, handler) {
      const name = namespace + logicalChannel;
      const subscription = (message: string) => handler(message);
      let channel = channels.get(name);
      // Commands on one connection run in order, so a SUBSCRIBE after a pending UNSUBSCRIBE wins.
      if (!channel) channels.set(name, (channel = { handlers: new Set(), ready: subscriber.subscribe(name) }));
      channel.handlers.add(subscription);
      const subscribed = channel;
      try {
        await subscribed.ready;
      } catch (error) {
        subscribed.handlers.delete(subscription);
        if (subscribed.handlers.size === 0 && channels.get(name) === subscribed) channels.delete(name);
        throw error;
      }
      return async () => {
        if (!subscribed.handlers.delete(subscription) || subscribed.handlers.size > 0) return;
        if (channels.get(name) === subscribed) channels.delete(name);
        if (!isClosing) await subscriber.unsubscribe(name);
      };
    },
    async close() {
      if (isClosing) return;
      isClosing = true;
      channels.clear();
      await Promise.all([quit(publisher), quit(subscriber)]);
    },
  };
}

/** Connects, failing on the first refusal instead of retrying for ever at start-up. */
export async function connectOnce(connection: Redis): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      connection.off('ready', succeed);
      reject(error);
    };
    const succeed = () => {
      connection.off('error', fail);
      resolve();
    };
    connection.once('error', fail);
    connection.once('ready', succeed);
    connection.connect().catch(fail);
  });
}

export async function quit(connection: Redis): Promise<void> {
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}

/** The URL as it may be logged: no password. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
