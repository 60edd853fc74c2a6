import type { FastifyBaseLogger } from 'fastify';
import {
  PROTOCOL_VERSION,
  type CloseReason,
  type CameraLayer,
  type IceCandidate,
  type IceServer,
  type MediaSlot,
  type MediaState,
  type Participant,
  type ServerMessage,
  type SfuRequest,
  type MeetingErrorCode,
} from '#shared/meetings';
import type { UserRole } from '#shared/constants';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { PresenceEvent } from '../../realtime/presence.ts';
import { createRoomHub, type RoomMember } from '../../realtime/room-hub.ts';
import { meetingRoster, type MeetingRoster, type RosterEntry, type RosterEvent } from './meeting-roster.ts';
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

/** On the room's channel besides the roster's own events: relays (for one participant), chat and moderation. */
type BusMessage =
  | { kind: 'relay'; to: string; message: ServerMessage }
  | { kind: 'chat'; message: ServerMessage }
  | ModerationBusMessage;

/** What the room hub carries on a meeting room's channel: the roster's events (the meeting's own among them) and the hub's. */
type MeetingMessage = Exclude<RosterEvent, PresenceEvent> | BusMessage;

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

/** Waits between attempts to bring a participant's media to its room's new SFU server, the last repeated. */
const SFU_MOVE_DELAYS_MS = [250, 500, 1000, 2000, 5000];

/** What the meeting keeps for one participant of this instance, beside its seat. */
type MeetingLocal = {
  identity: MeetingIdentity;
  connection: HubConnection;
  /** Its connections on its room's SFU server, in an SFU room (held from before its seat is claimed). */
  sfu?: SfuParticipant;
  /** Its server went away: its media is being brought to the room's new server. */
  isMovingSfu: boolean;
  /** Its microphone, camera and screen as the roster shows them. */
  media: MediaState;
};

type LocalMember = RoomMember<RosterEntry, MeetingLocal, MeetingMessage>;

const presentParticipant = (entry: RosterEntry): Participant => ({
  id: entry.id,
  name: entry.name,
  role: entry.role,
  media: entry.media,
  host: entry.host,
  hand: entry.hand,
});

/**
 * Meeting rooms of this instance, on the room layer's hub (realtime/room-hub.ts, decision 065):
 * the hub keeps the seats (claimed in the shared roster, so the room-size limit holds across
 * instances) and the room's channel; this is what a meeting adds: the welcome, the roster's events
 * as meeting messages, relays, chat, the teacher's controls (decision 038) and the SFU (decision 037).
 */
export function createSignallingHub(options: SignallingHubOptions): SignallingHub {
  const { pubsub, log } = options;
  const roster: MeetingRoster = meetingRoster(pubsub);
  let isClosed = false;

  const hub = createRoomHub<RosterEntry, MeetingMessage, MeetingLocal>({
    pubsub,
    presence: roster,
    log,
    heartbeatMs: options.heartbeatMs,
    deliver,
    // The seat goes back once its SFU connections are let go.
    leaving: async (member) => {
      await member.local.sfu?.close();
    },
  });

  function deliver(member: LocalMember, message: PresenceEvent<RosterEntry> | MeetingMessage) {
    const { connection } = member.local;
    switch (message.kind) {
      case 'relay':
        if (message.to === member.id) connection.send(message.message);
        return;
      case 'chat':
        connection.send(message.message);
        return;
      case 'moderate': {
        const isTarget = message.to === null ? message.from !== member.id : message.to === member.id;
        if (!isTarget || member.identity.host) return;
        connection.send(message.message);
        if (message.message.type === 'moderated' && message.message.action === 'mute') void enforceMute(member);
        return;
      }
      case 'joined':
        if (message.participant.id !== member.id) {
          connection.send({ type: 'participant-joined', participant: presentParticipant(message.participant) });
        }
        return;
      case 'left':
        // Our own leaving is the hub's (it closes the socket with the reason).
        connection.send({ type: 'participant-left', participantId: message.participantId, reason: message.reason });
        return;
      case 'resumed':
        return; // meetings do not resume (a reconnect is a new participant)
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
    member.local.connection.close(reason);
    void member.leave();
  }

  /** The participant's connections on the server that serves its room now; undefined when out of reach. */
  function connectSfu(sfu: SfuRooms, member: LocalMember): Promise<SfuParticipant | undefined> {
    const { roomId } = member.identity;
    return sfu.participant({
      roomId,
      id: member.id,
      roomSize: options.roomSize,
      send: (message) => member.local.connection.send(message),
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
    const local = member.local;
    if (local.isMovingSfu || member.hasLeft) return;
    local.isMovingSfu = true;
    const { roomId } = member.identity;
    log.info({ roomId }, 'meeting room: the SFU server went away; moving a participant');
    const old = local.sfu;
    local.sfu = undefined;
    local.connection.send({ type: 'sfu-moving' });
    try {
      await old?.close();
      for (let attempt = 0; !member.hasLeft && !isClosed; attempt += 1) {
        const next = await connectSfu(sfu, member).catch((error: unknown) => {
          log.warn({ err: error, roomId }, 'meeting room: the SFU could not take a participant back yet');
          return undefined;
        });
        if (next) {
          if (member.hasLeft || isClosed) return await next.close();
          local.sfu = next;
          next.allowAudio(local.media.mic);
          local.connection.send({ type: 'sfu-moved' });
          return;
        }
        const delay = SFU_MOVE_DELAYS_MS[Math.min(attempt, SFU_MOVE_DELAYS_MS.length - 1)];
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    } finally {
      local.isMovingSfu = false;
    }
  }

  /**
   * A host muted this participant: the room shows their microphone off and the SFU stops
   * forwarding their sound, whether or not their page obeys (decision 038).
   */
  async function enforceMute(member: LocalMember) {
    const local = member.local;
    local.sfu?.allowAudio(false);
    if (!local.media.mic) return;
    local.media = { ...local.media, mic: false };
    try {
      await roster.setMedia(member.identity.roomId, member.id, local.media);
    } catch (error) {
      log.warn({ err: error, roomId: member.identity.roomId }, 'meeting room: could not record a mute');
    }
  }

  function join(member: LocalMember, media: MediaState): Promise<JoinOutcome> {
    const { sfu } = options;
    const local = member.local;
    const { name, role, host, roomId } = local.identity;
    // Students join muted (decision 038): their page turns its microphone off on welcome.
    const seatedMedia = host ? media : { ...media, mic: false };
    return member.join<'media-unavailable'>({
      data: { name, role, media: seatedMedia, hand: null },
      limit: options.roomSize,
      // Without the room's SFU server the room has no media here: the page is told and retries
      // (no seat is taken). Left meanwhile, or the hub closed: leave() lets the SFU go.
      prepare: sfu
        ? async () => {
            local.sfu = await connectSfu(sfu, member);
            return local.sfu ? undefined : 'media-unavailable';
          }
        : undefined,
      seated: ({ entry, others, locked }) => {
        local.media = seatedMedia;
        local.sfu?.allowAudio(seatedMedia.mic);
        local.connection.send({
          type: 'welcome',
          protocolVersion: PROTOCOL_VERSION,
          roomId,
          you: presentParticipant(entry),
          participants: others.map(presentParticipant),
          iceServers: options.iceServers,
          roomSize: options.roomSize,
          locked,
          topology: sfu ? 'sfu' : 'mesh',
        });
      },
    });
  }

  async function publish(member: LocalMember, message: BusMessage) {
    await member.publish(message);
  }

  async function handleSfu(member: LocalMember, request: SfuRequest) {
    const sfu = member.local.sfu;
    if (!sfu || !member.isJoined) return;
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
      if (member.local.sfu !== sfu) return;
      log.warn({ err: error, roomId: member.identity.roomId }, 'meeting room: an SFU request failed');
      dropMember(member, 'MEDIA_UNAVAILABLE');
    }
  }

  return {
    admit(connection, identity) {
      const { userId, roomId, host } = identity;
      const member = hub.admit(
        connection,
        { userId, roomId, host },
        { identity, connection, isMovingSfu: false, media: { mic: false, camera: false, screen: false } },
      );
      return {
        id: member.id,
        join: (media) => join(member, media),
        relay(request) {
          // In an SFU room media goes through the SFU only: nothing is relayed browser to browser.
          if (request.to === member.id || member.local.sfu) return Promise.resolve();
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
            name: identity.name,
            text,
            sentAt: new Date().toISOString(),
          };
          return publish(member, { kind: 'chat', message });
        },
        async setMedia(media) {
          if (!member.isJoined) return;
          member.local.media = media;
          await roster.setMedia(roomId, member.id, media);
          // Heard again only once the room shows the microphone on.
          member.local.sfu?.allowAudio(media.mic);
        },
        async moderate(request) {
          if (!member.isJoined) return undefined;
          return moderate(
            roster,
            (message) => publish(member, message),
            { participantId: member.id, roomId, name: identity.name, host },
            request,
          );
        },
        leave: () => member.leave(),
      };
    },

    async close() {
      isClosed = true;
      await hub.close();
    },
  };
}
