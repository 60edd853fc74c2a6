import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  PROTOCOL_VERSION,
  type CloseReason,
  type CameraLayer,
  type IceCandidate,
  type IceServer,
  type LeaveReason,
  type MediaSlot,
  type MediaState,
  type Participant,
  type ServerMessage,
  type SfuRequest,
  type MeetingErrorCode,
} from '#shared/meetings';
import type { UserRole } from '#shared/constants';
import { roomChannel, type PubSub, type RosterEntry, type RosterEvent, type Unsubscribe } from './pubsub.ts';
import { moderate, type ModerationBusMessage, type ModerationRequest } from './moderation.ts';

/** The hub's view of one socket: the route decides how to send and close. */
export type HubConnection = {
  send(message: ServerMessage): void;
  close(reason: CloseReason): void;
};

/** Who joins which room, as the meeting token says. */
export type MeetingIdentity = { userId: string; name: string; role: UserRole; roomId: string; host: boolean };

/** A relayed WebRTC message: the server adds `from` and passes it to `to` only. */
export type RelayRequest =
  { type: 'offer' | 'answer'; to: string; sdp: string } | { type: 'candidate'; to: string; candidate: IceCandidate };

/** On the room's channel besides the roster's own events: relays (for one participant) and chat. */
type BusMessage =
  | RosterEvent
  | { kind: 'relay'; to: string; message: ServerMessage }
  | { kind: 'chat'; message: ServerMessage }
  | ModerationBusMessage;

/** One participant's presence on the SFU: its publishing and subscribing connections. */
export type SfuParticipant = {
  publish(sdp: string, slots: Record<MediaSlot, string>): Promise<void>;
  /** The browser's answer to the subscription's offer of `revision` (none from older pages). */
  answer(sdp: string, revision?: number): void;
  candidate(connection: 'publisher' | 'subscriber', candidate: IceCandidate): Promise<void>;
  /** Whose cameras the page shows, and in which simulcast layer. */
  view(cameras: readonly string[], layer: CameraLayer): void;
  /** Whether the SFU forwards this participant's sound: only while the room shows their microphone on. */
  allowAudio(allowed: boolean): void;
  close(): Promise<void>;
};

/** The SFU as the hub uses it; main.ts passes Janus's (janus/janus-rooms.ts) when JANUS_URL is set. */
export type SfuRooms = {
  /**
   * The participant's connections on the SFU server that serves the room (agreed with the other
   * instances); undefined when that server cannot be reached from here now.
   */
  participant(options: {
    roomId: string;
    id: string;
    roomSize: number;
    send: (message: ServerMessage) => void;
    /** The SFU refused or lost this participant: its socket is closed and the page reconnects. */
    onFailure: (error: unknown) => void;
    /**
     * The room's server went away (or the room may have moved): the hub keeps the seat and asks
     * for the participant again, on whichever server serves the room now.
     */
    onServerLost: () => void;
  }): Promise<SfuParticipant | undefined>;
};

export type { SfuRequest };

export type SignallingHubOptions = {
  pubsub: PubSub;
  /** With it, every room's media goes through the SFU; without it, browser to browser. */
  sfu?: SfuRooms;
  roomSize: number;
  iceServers: IceServer[];
  log: FastifyBaseLogger;
  /** How often this instance tells the roster its participants are alive (well under the roster's TTL). */
  heartbeatMs?: number;
};

export type JoinOutcome = 'joined' | 'full' | 'gone' | 'media-unavailable' | 'removed' | 'locked';

/** One participant connected to this instance. */
export type Member = {
  readonly id: string;
  /** Takes a seat (or not: full), says welcome, and starts delivering the room's events. */
  join(media: MediaState): Promise<JoinOutcome>;
  relay(request: RelayRequest): Promise<void>;
  /** A request to the SFU; ignored in a mesh room. */
  sfu(request: SfuRequest): Promise<void>;
  chat(text: string): Promise<void>;
  setMedia(media: MediaState): Promise<void>;
  /** A host action or a hand (decision 038); resolves with the refusal to tell the sender, if any. */
  moderate(request: ModerationRequest): Promise<MeetingErrorCode | undefined>;
  /** Gives the seat back; safe to call at any stage and more than once. */
  leave(): Promise<void>;
};

export type SignallingHub = {
  admit(connection: HubConnection, identity: MeetingIdentity): Member;
  /** Closes every local participant's socket (GOING_AWAY) and gives their seats back. */
  close(): Promise<void>;
};

export const DEFAULT_HEARTBEAT_MS = 10_000;
/** Waits between attempts to bring a participant's media to its room's new SFU server, the last repeated. */
const SFU_MOVE_DELAYS_MS = [250, 500, 1000, 2000, 5000];
/** Events held for a participant while its seat is being claimed (milliseconds, normally a handful). */
const MAX_PENDING_EVENTS = 1000;

/** How a participant's own socket closes when the roster lets its seat go for this reason. */
const leaveCloseReason: Partial<Record<LeaveReason, CloseReason>> = { replaced: 'REPLACED', removed: 'REMOVED' };

type MemberState = 'new' | 'joining' | 'joined' | 'gone';

type LocalMember = {
  id: string;
  identity: MeetingIdentity;
  connection: HubConnection;
  state: MemberState;
  /** Holds a seat in the roster (so leaving must give it back). */
  isSeated: boolean;
  /** Its connections on its room's SFU server, in an SFU room (held from before its seat is claimed). */
  sfu?: SfuParticipant;
  /** Its server went away: its media is being brought to the room's new server. */
  isMovingSfu: boolean;
  /** Its microphone, camera and screen as the roster shows them. */
  media: MediaState;
  /** Roster sequence already reflected in what this participant was told. */
  seenSeq: number;
  pending: BusMessage[];
  joining?: Promise<JoinOutcome>;
  leaving?: Promise<void>;
};

type LocalRoom = { members: Map<string, LocalMember>; subscription: Promise<Unsubscribe> };

/** Read through a function: leave() changes the state while join() awaits, which TypeScript cannot see. */
const hasLeft = (member: LocalMember) => member.state === 'gone';

const presentParticipant = (entry: RosterEntry): Participant => ({
  id: entry.id,
  name: entry.name,
  role: entry.role,
  media: entry.media,
  host: entry.host,
  hand: entry.hand,
});

/**
 * Meeting rooms of this instance. Everything that crosses instances goes through
 * the pub/sub bus: each room is one channel, to which an instance subscribes while
 * it holds someone in that room. Seats are claimed in the shared roster, which also
 * publishes joined/left/media events, so the room-size limit holds across instances.
 */
export function createSignallingHub(options: SignallingHubOptions): SignallingHub {
  const { pubsub, log } = options;
  const instanceId = randomBytes(6).toString('base64url');
  const rooms = new Map<string, LocalRoom>();
  let isClosed = false;

  function enterRoom(member: LocalMember): LocalRoom {
    const roomId = member.identity.roomId;
    let room = rooms.get(roomId);
    if (!room) {
      const members = new Map<string, LocalMember>();
      const subscription = pubsub.subscribe(roomChannel(roomId), (message) => handleBusMessage(members, message));
      // Joiners await it and fail with its error; this only keeps the rejection from going unhandled.
      subscription.catch(() => undefined);
      room = { members, subscription };
      rooms.set(roomId, room);
    }
    room.members.set(member.id, member);
    return room;
  }

  function exitRoom(member: LocalMember) {
    const roomId = member.identity.roomId;
    const room = rooms.get(roomId);
    if (!room?.members.delete(member.id) || room.members.size > 0) return;
    rooms.delete(roomId);
    room.subscription
      .then((unsubscribe) => unsubscribe())
      .catch((error: unknown) => log.debug({ err: error, roomId }, 'meeting room: unsubscribe failed'));
  }

  function handleBusMessage(members: Map<string, LocalMember>, raw: string) {
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch (error) {
      log.warn({ err: error }, 'meeting room: unreadable bus message');
      return;
    }
    for (const member of [...members.values()]) deliver(member, message);
  }

  function deliver(member: LocalMember, message: BusMessage) {
    if (member.state === 'joining') {
      member.pending.push(message);
      if (member.pending.length > MAX_PENDING_EVENTS) dropMember(member, 'SERVER_ERROR');
      return;
    }
    if (member.state !== 'joined') return;
    const { connection } = member;
    if (message.kind === 'relay') {
      if (message.to === member.id) connection.send(message.message);
      return;
    }
    if (message.kind === 'chat') {
      connection.send(message.message);
      return;
    }
    if (message.kind === 'moderate') {
      const isTarget = message.to === null ? message.from !== member.id : message.to === member.id;
      if (!isTarget || member.identity.host) return;
      connection.send(message.message);
      if (message.message.type === 'moderated' && message.message.action === 'mute') void enforceMute(member);
      return;
    }
    // Roster events: skip those the welcome snapshot (or an earlier event) already covered.
    if (message.seq <= member.seenSeq) return;
    member.seenSeq = message.seq;
    switch (message.kind) {
      case 'joined':
        if (message.participant.id !== member.id) {
          connection.send({ type: 'participant-joined', participant: presentParticipant(message.participant) });
        }
        return;
      case 'left':
        if (message.participantId === member.id) {
          // The roster let this seat go: the person joined again elsewhere, or our heartbeat lapsed.
          member.isSeated = false;
          dropMember(member, leaveCloseReason[message.reason] ?? 'SERVER_ERROR');
        } else {
          connection.send({ type: 'participant-left', participantId: message.participantId, reason: message.reason });
        }
        return;
      case 'media':
        if (message.participantId !== member.id) {
          connection.send({ type: 'media-state', from: message.participantId, state: message.media });
        }
        return;
      case 'hand':
        connection.send({ type: 'hand', participantId: message.participantId, hand: message.hand });
        return;
      case 'hands-lowered':
        connection.send({ type: 'hands-lowered', by: message.by });
        return;
      case 'lock':
        connection.send({ type: 'room-lock', locked: message.locked, by: message.by });
        return;
    }
  }

  function dropMember(member: LocalMember, reason: CloseReason) {
    member.connection.close(reason);
    void leaveOnce(member);
  }

  function leaveOnce(member: LocalMember): Promise<void> {
    member.leaving ??= leave(member);
    return member.leaving;
  }

  /** The participant's connections on the server that serves its room now; undefined when out of reach. */
  function connectSfu(sfu: SfuRooms, member: LocalMember): Promise<SfuParticipant | undefined> {
    const { roomId } = member.identity;
    return sfu.participant({
      roomId,
      id: member.id,
      roomSize: options.roomSize,
      send: (message) => member.connection.send(message),
      onFailure: (error) => {
        log.warn({ err: error, roomId }, 'meeting room: the SFU refused or lost a participant');
        dropMember(member, 'MEDIA_UNAVAILABLE');
      },
      onServerLost: () => void moveSfu(sfu, member),
    });
  }

  /**
   * The room's SFU server went away (issue 30): the participant keeps its seat, so the room keeps
   * its lock, removals and hands, and its media comes back on the server that serves the room now
   * (another one once every holder has let the dead one go; the same one when it returns). The
   * page is told to drop its media connections, then to publish again.
   */
  async function moveSfu(sfu: SfuRooms, member: LocalMember) {
    if (member.isMovingSfu || member.state === 'gone') return;
    member.isMovingSfu = true;
    const { roomId } = member.identity;
    log.info({ roomId }, 'meeting room: the SFU server went away; moving a participant');
    const old = member.sfu;
    member.sfu = undefined;
    member.connection.send({ type: 'sfu-moving' });
    try {
      await old?.close();
      for (let attempt = 0; !hasLeft(member) && !isClosed; attempt += 1) {
        const next = await connectSfu(sfu, member).catch((error: unknown) => {
          log.warn({ err: error, roomId }, 'meeting room: the SFU could not take a participant back yet');
          return undefined;
        });
        if (next) {
          if (hasLeft(member) || isClosed) return await next.close();
          member.sfu = next;
          next.allowAudio(member.media.mic);
          member.connection.send({ type: 'sfu-moved' });
          return;
        }
        const delay = SFU_MOVE_DELAYS_MS[Math.min(attempt, SFU_MOVE_DELAYS_MS.length - 1)];
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    } finally {
      member.isMovingSfu = false;
    }
  }

  /**
   * A host muted this participant: the room shows their microphone off and the SFU stops
   * forwarding their sound, whether or not their page obeys (decision 038).
   */
  async function enforceMute(member: LocalMember) {
    member.sfu?.allowAudio(false);
    if (!member.media.mic) return;
    member.media = { ...member.media, mic: false };
    try {
      await pubsub.roster.setMedia(member.identity.roomId, member.id, member.media);
    } catch (error) {
      log.warn({ err: error, roomId: member.identity.roomId }, 'meeting room: could not record a mute');
    }
  }

  async function join(member: LocalMember, media: MediaState): Promise<JoinOutcome> {
    member.state = 'joining';
    const { roomId } = member.identity;
    if (options.sfu) {
      try {
        member.sfu = await connectSfu(options.sfu, member);
      } catch (error) {
        member.state = 'gone';
        throw error;
      }
      // Without the room's SFU server the room has no media here: the page is told and retries
      // (no seat is taken). Left meanwhile, or the hub closed: leave() lets the SFU go.
      if (!member.sfu) {
        member.state = 'gone';
        return 'media-unavailable';
      }
      if (hasLeft(member) || isClosed) return 'gone';
    }
    const room = enterRoom(member);
    const { userId, name, role, host } = member.identity;
    // Students join muted (decision 038): their page turns its microphone off on welcome.
    const seatedMedia = host ? media : { ...media, mic: false };
    const entry: RosterEntry = { id: member.id, name, role, media: seatedMedia, host, hand: null, userId, instanceId };
    let claim;
    try {
      await room.subscription;
      if (hasLeft(member)) return 'gone';
      claim = await pubsub.roster.claim(roomId, entry, options.roomSize);
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
    member.isSeated = true;
    // Left while the claim was on its way: leave() gives the seat back once this returns.
    if (hasLeft(member)) return 'gone';
    member.state = 'joined';
    member.media = seatedMedia;
    member.sfu?.allowAudio(seatedMedia.mic);
    member.seenSeq = claim.seq;
    member.connection.send({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      roomId,
      you: presentParticipant(entry),
      participants: claim.others.map(presentParticipant),
      iceServers: options.iceServers,
      roomSize: options.roomSize,
      locked: claim.locked,
      topology: options.sfu ? 'sfu' : 'mesh',
    });
    const pending = member.pending;
    member.pending = [];
    for (const message of pending) deliver(member, message);
    return 'joined';
  }

  async function leave(member: LocalMember): Promise<void> {
    member.state = 'gone';
    member.pending = [];
    exitRoom(member);
    await member.joining?.catch(() => undefined);
    await member.sfu?.close();
    if (!member.isSeated) return;
    member.isSeated = false;
    try {
      await pubsub.roster.release(member.identity.roomId, member.id, 'left');
    } catch (error) {
      // The heartbeat stops with the socket, so the roster frees the seat by itself within its TTL.
      log.warn({ err: error, roomId: member.identity.roomId }, 'meeting room: could not release a seat');
    }
  }

  async function publish(member: LocalMember, message: BusMessage) {
    if (member.state !== 'joined') return;
    await pubsub.publish(roomChannel(member.identity.roomId), JSON.stringify(message));
  }

  async function heartbeat() {
    await Promise.all(
      [...rooms.entries()].map(async ([roomId, room]) => {
        const seated = [...room.members.values()].filter((member) => member.isSeated && member.state === 'joined');
        if (seated.length === 0) return;
        try {
          const missing = new Set(
            await pubsub.roster.refresh(
              roomId,
              seated.map((member) => member.id),
            ),
          );
          for (const member of seated) {
            if (!missing.has(member.id) || !member.isSeated) continue;
            member.isSeated = false;
            dropMember(member, 'SERVER_ERROR');
          }
        } catch (error) {
          log.warn({ err: error, roomId }, 'meeting room: heartbeat failed');
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

  async function handleSfu(member: LocalMember, request: SfuRequest) {
    const sfu = member.sfu;
    if (!sfu || member.state !== 'joined') return;
    try {
      switch (request.type) {
        case 'sfu-publish':
          return await sfu.publish(request.sdp, request.slots);
        case 'sfu-answer':
          return sfu.answer(request.sdp, request.revision);
        case 'sfu-candidate':
          return await sfu.candidate(request.connection, request.candidate);
        case 'sfu-view':
          return sfu.view(request.cameras, request.layer);
      }
    } catch (error) {
      // Its server went away meanwhile: the participant is being moved, not dropped.
      if (member.sfu !== sfu) return;
      log.warn({ err: error, roomId: member.identity.roomId }, 'meeting room: an SFU request failed');
      dropMember(member, 'MEDIA_UNAVAILABLE');
    }
  }

  return {
    admit(connection, identity) {
      const member: LocalMember = {
        id: randomBytes(12).toString('base64url'),
        identity,
        connection,
        state: 'new',
        isSeated: false,
        isMovingSfu: false,
        media: { mic: false, camera: false, screen: false },
        seenSeq: 0,
        pending: [],
      };
      return {
        id: member.id,
        join(media) {
          if (isClosed) {
            member.state = 'gone';
            return Promise.resolve('gone');
          }
          if (member.state !== 'new') throw new Error('join() called twice');
          member.joining = join(member, media);
          return member.joining;
        },
        relay(request) {
          // In an SFU room media goes through the SFU only: nothing is relayed browser to browser.
          if (request.to === member.id || member.sfu) return Promise.resolve();
          const from = member.id;
          const message: ServerMessage =
            request.type === 'candidate'
              ? { type: 'candidate', from, candidate: request.candidate }
              : { type: request.type, from, sdp: request.sdp };
          return publish(member, { kind: 'relay', to: request.to, message });
        },
        sfu: (request) => handleSfu(member, request),
        chat(text) {
          const message: ServerMessage = {
            type: 'chat',
            from: member.id,
            name: member.identity.name,
            text,
            sentAt: new Date().toISOString(),
          };
          return publish(member, { kind: 'chat', message });
        },
        async setMedia(media) {
          if (member.state !== 'joined') return;
          member.media = media;
          await pubsub.roster.setMedia(member.identity.roomId, member.id, media);
          // Heard again only once the room shows the microphone on.
          member.sfu?.allowAudio(media.mic);
        },
        async moderate(request) {
          if (member.state !== 'joined') return undefined;
          const { roomId, name, host } = member.identity;
          return moderate(
            pubsub,
            (message) => publish(member, message),
            { participantId: member.id, roomId, name, host },
            request,
          );
        },
        leave: () => leaveOnce(member),
      };
    },

    async close() {
      isClosed = true;
      clearInterval(heartbeatTimer);
      const members = [...rooms.values()].flatMap((room) => [...room.members.values()]);
      await Promise.all(
        members.map((member) => {
          member.connection.close('GOING_AWAY');
          return leaveOnce(member);
        }),
      );
    },
  };
}
