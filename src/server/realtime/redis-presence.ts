import type { RoomLeaveReason } from '#shared/rooms';
import { roomChannel, type RedisScripting } from './pubsub.ts';
import type { ClaimResult, PresenceEntry, RemoveOutcome, RoomPresence } from './presence.ts';

/** Lua: `now`, Redis's own time in ms, so the instances' clocks do not matter. */
export const REDIS_NOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/** An idle room's sequence outlives its members, so numbers never restart under a late event. */
const SEQUENCE_TTL_SECONDS = 24 * 60 * 60;

// Shared head of the presence scripts (and of a protocol's own operations, presence.ts `run`).
// KEYS: members hash (id -> entry JSON), expiry sorted set (id -> ms), sequence counter, lock (the
// set of user ids in the room when it was locked), removed users (user id -> until ms). ARGV[1]:
// the room's channel. Time is Redis's (REDIS_NOW). Each change bumps the sequence and publishes
// its event in the same step.
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
-- Whether a seat is held by this instance ('' = whoever holds it).
local function owned(id, owner)
  if owner == '' then return true end
  local stored = redis.call('HGET', members, id)
  return stored ~= false and cjson.decode(stored).instanceId == owner
end
`;

// ARGV: channel, id, userId, entry JSON, limit, ttl, host (1/0), resume id ('' = none), the entry
// JSON under the resume id. Returns {'removed'}, {'locked'}, {'full'}, or {'joined' or 'resumed',
// seq, locked (1/0), other entries...}.
const CLAIM_SCRIPT = `${SCRIPT_HEAD}
local id, userId, entry, limit, ttl = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local resumeId, resumedEntry = ARGV[8], ARGV[9]
redis.call('ZREMRANGEBYSCORE', removed, '-inf', now)
if redis.call('ZSCORE', removed, userId) then return {'removed'} end
prune()
local locked = redis.call('EXISTS', lock)
-- Seats the entry, publishes its event, and replies with the others' entries.
local function seat(kind, seatId, json, others)
  redis.call('HSET', members, seatId, json)
  redis.call('ZADD', expiry, now + ttl, seatId)
  local seq = redis.call('INCR', sequence)
  redis.call('PUBLISH', channel, '{"kind":"' .. kind .. '","seq":' .. seq .. ',"participant":' .. json .. '}')
  keep(ttl)
  local reply = {kind, seq, locked}
  for _, other in ipairs(others) do table.insert(reply, other) end
  return reply
end
if resumeId ~= '' then
  local held = redis.call('HGET', members, resumeId)
  if held and cjson.decode(held).userId == userId then
    local others = {}
    local all = redis.call('HGETALL', members)
    for i = 1, #all, 2 do
      if all[i] ~= resumeId then table.insert(others, all[i + 1]) end
    end
    return seat('resumed', resumeId, resumedEntry, others)
  end
end
if locked == 1 and ARGV[7] ~= '1' and redis.call('SISMEMBER', lock, userId) == 0 then return {'locked'} end
local earlier = nil
local others = {}
local all = redis.call('HGETALL', members)
for i = 1, #all, 2 do
  if cjson.decode(all[i + 1]).userId == userId then earlier = all[i] else table.insert(others, all[i + 1]) end
end
if #others >= limit then return {'full'} end
if earlier then left(earlier, 'replaced') end
return seat('joined', id, entry, others)
`;

// ARGV: channel, id, reason, owner ('' = whoever holds it).
const RELEASE_SCRIPT = `${SCRIPT_HEAD}
if owned(ARGV[2], ARGV[4]) then left(ARGV[2], ARGV[3]) end
return 1
`;

// ARGV: channel, ttl, owner ('' = any), ids... Returns the ids the roster no longer holds (for the owner).
const REFRESH_SCRIPT = `${SCRIPT_HEAD}
local ttl, owner = tonumber(ARGV[2]), ARGV[3]
prune()
local missing = {}
for i = 4, #ARGV do
  if redis.call('ZSCORE', expiry, ARGV[i]) and owned(ARGV[i], owner) then
    redis.call('ZADD', expiry, 'XX', now + ttl, ARGV[i])
  else
    table.insert(missing, ARGV[i])
  end
end
if #ARGV > 3 then keep(ttl) end
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

/** A protocol's seats on Redis: each room's keys share a hash tag, its channel is `scope:roomId`. */
export function createRedisPresence<Entry extends PresenceEntry>(
  redis: RedisScripting,
  scope: string,
): RoomPresence<Entry> {
  const { namespace, entryTtlMs: ttl } = redis;
  const keys = (roomId: string) => {
    // The hash tag keeps one room's keys in one slot, should this ever meet a Redis Cluster.
    const base = `${namespace}${scope}:{${roomId}}`;
    return [`${base}:members`, `${base}:expiry`, `${base}:seq`, `${base}:lock`, `${base}:removed`];
  };
  const run = (script: string, roomId: string, args: (string | number)[]) =>
    redis.eval(script, keys(roomId), [namespace + roomChannel(scope, roomId), ...args]);

  return {
    scope,
    async claim(roomId, entry, limit, options = {}): Promise<ClaimResult<Entry>> {
      const resumeId = options.resumeId ?? '';
      const resumed = resumeId === '' ? '' : JSON.stringify({ ...entry, id: resumeId });
      const args = [entry.id, entry.userId, JSON.stringify(entry), limit, ttl, entry.host ? 1 : 0, resumeId, resumed];
      const reply = (await run(CLAIM_SCRIPT, roomId, args)) as [string, ...unknown[]];
      if (reply[0] !== 'joined' && reply[0] !== 'resumed')
        return { outcome: reply[0] as 'full' | 'removed' | 'locked' };
      const [outcome, seq, locked, ...others] = reply;
      return {
        outcome: 'joined',
        seq: Number(seq),
        locked: Number(locked) === 1,
        others: others.map((other) => JSON.parse(String(other)) as Entry),
        ...(outcome === 'resumed' ? { resumed: true as const } : {}),
      };
    },
    async release(roomId, participantId, reason: RoomLeaveReason, options = {}) {
      await run(RELEASE_SCRIPT, roomId, [participantId, reason, options.instanceId ?? '']);
    },
    async refresh(roomId, participantIds, options = {}) {
      const missing = await run(REFRESH_SCRIPT, roomId, [ttl, options.instanceId ?? '', ...participantIds]);
      return (missing as string[]).map(String);
    },
    async remove(roomId, participantId, forMs) {
      return (await run(REMOVE_SCRIPT, roomId, [participantId, forMs])) as RemoveOutcome;
    },
    async setLocked(roomId, locked, by) {
      await run(LOCK_SCRIPT, roomId, [locked ? 1 : 0, by]);
    },
    async run(roomId, operation) {
      const reply = await run(`${SCRIPT_HEAD}\n${operation.lua}`, roomId, operation.args);
      return operation.read ? operation.read(reply) : (reply as never);
    },
  };
}
