import type { LeaveReason, MediaState, Participant } from '#shared/meetings';
import { roomPresence, type PresenceOperation, type RoomPresence } from '../../realtime/presence.ts';
import { roomChannel, type PubSub } from '../../realtime/pubsub.ts';

/**
 * A meeting room's roster: the room layer's presence (realtime/presence.ts, decision 065) with
 * the meeting's own fields in each seat (name, role, media, raised hand) and the operations that
 * change them atomically with the seats (decision 038: media state, hands).
 */

/**
 * The meetings' name in the presence's keys and channels. `room`, as before the room layer
 * (decision 065), so Redis keys and channels are those of earlier versions.
 */
export const MEETING_SCOPE = 'room';

/** The channel of one meeting room: its roster events and the hub's relays, chat and moderation. */
export const meetingChannel = (roomId: string) => roomChannel(MEETING_SCOPE, roomId);

/** One participant as the roster keeps it: what others see, plus who and where. */
export type RosterEntry = Participant & { userId: string; instanceId: string };

/**
 * Published on the room's channel by the roster operations themselves, atomically with the
 * change, numbered by the room's sequence (the layer's `joined`, `left`, `resumed` and `lock`,
 * and the meeting's own below).
 */
export type RosterEvent =
  | { kind: 'joined'; seq: number; participant: RosterEntry }
  | { kind: 'left'; seq: number; participantId: string; reason: LeaveReason }
  | { kind: 'resumed'; seq: number; participant: RosterEntry }
  | { kind: 'media'; seq: number; participantId: string; media: MediaState }
  | { kind: 'hand'; seq: number; participantId: string; hand: number | null }
  | { kind: 'hands-lowered'; seq: number; by: string }
  | { kind: 'lock'; seq: number; locked: boolean; by: string };

export type MeetingRoster = RoomPresence<RosterEntry> & {
  setMedia(roomId: string, participantId: string, media: MediaState): Promise<void>;
  /** Raises (numbered by the room's sequence, so hands keep their order) or lowers one hand. */
  setHand(roomId: string, participantId: string, raised: boolean): Promise<void>;
  lowerHands(roomId: string, by: string): Promise<void>;
};

// ARGV (after the channel): id, media JSON.
const MEDIA_LUA = `
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

// ARGV (after the channel): id, raised (1/0). A raised hand keeps its first number.
const HAND_LUA = `
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

// ARGV (after the channel): by.
const LOWER_HANDS_LUA = `
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

type Operation = PresenceOperation<RosterEntry, void>;

const setMedia = (participantId: string, media: MediaState): Operation => ({
  lua: MEDIA_LUA,
  args: [participantId, JSON.stringify(media)],
  read: () => undefined,
  local(room) {
    const entry = room.members.get(participantId);
    if (!entry) return;
    room.members.set(participantId, { ...entry, media });
    room.publish({ kind: 'media', seq: room.nextSeq(), participantId, media });
  },
});

const setHand = (participantId: string, raised: boolean): Operation => ({
  lua: HAND_LUA,
  args: [participantId, raised ? 1 : 0],
  read: () => undefined,
  local(room) {
    const entry = room.members.get(participantId);
    if (!entry) return;
    const seq = room.nextSeq();
    const hand = raised ? (entry.hand ?? seq) : null;
    room.members.set(participantId, { ...entry, hand });
    room.publish({ kind: 'hand', seq, participantId, hand });
  },
});

const lowerHands = (by: string): Operation => ({
  lua: LOWER_HANDS_LUA,
  args: [by],
  read: () => undefined,
  local(room) {
    if (room.members.size === 0) return;
    for (const [id, entry] of room.members) room.members.set(id, { ...entry, hand: null });
    room.publish({ kind: 'hands-lowered', seq: room.nextSeq(), by });
  },
});

/** The meeting roster on this bus (Redis: every instance's; otherwise this process's). */
export function meetingRoster(bus: PubSub): MeetingRoster {
  const presence = roomPresence<RosterEntry>(bus, MEETING_SCOPE);
  return {
    ...presence,
    setMedia: (roomId, participantId, media) => presence.run(roomId, setMedia(participantId, media)),
    setHand: (roomId, participantId, raised) => presence.run(roomId, setHand(participantId, raised)),
    lowerHands: (roomId, by) => presence.run(roomId, lowerHands(by)),
  };
}
