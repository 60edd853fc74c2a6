import {
  CLOSE_CODES,
  MEETING_SOCKET_PATH,
  PROTOCOL_VERSION,
  chatTextSchema,
  shouldReconnect,
  type ClientMessage,
  type CloseReason,
  type IceServer,
  type MediaState,
  type CameraLayer,
  type MediaSlot,
  type MediaTopology,
  type MeetingTicket,
  type Participant,
  type ServerMessage,
} from '#shared/meetings';
import { roomSocketQuery } from '#shared/rooms';
import { hasSessionEnded, type ApiError } from '../../lib/api.ts';
import { RoomSocket, type RoomSocketEnd } from '../../lib/room-socket.ts';
import { openDevices, openScreen } from './local-media.ts';
import { isUsableToken } from './meeting-links.ts';
import { PeerLink, type IncomingMedia, type LinkState, type OutgoingTracks, type PeerSignal } from './peer-link.ts';
import { applyRoomEvent, cameraBitrateFor, EMPTY_ROOM, type ChatLine, type RoomState } from './room-state.ts';
import { SfuLink } from './sfu-link.ts';
import { meetingErrorText } from './meeting-texts.ts';
import { SpeakingDetector } from './speaking-detector.ts';
import { applyHandEvent, moderationNotice, type ModerationMessage } from './raised-hands.ts';

/** The speaking detector's key for this page's own microphone. */
export const LOCAL_SPEAKER = 'local';

export type MeetingPhase = 'joining' | 'joined' | 'reconnecting' | 'ended';

/**
 * Why the meeting ended for this page, and whether joining again can help; the screen words it
 * (meetingEndText). `refusal`: the server's refusal of a meeting token.
 */
export type MeetingEnd = { reason: CloseReason | 'session' | 'refused'; canRetry: boolean; refusal?: ApiError };

/** What the banner says while (re)connecting, as a code the screen words (connectionNoteText). */
export type ConnectionNote = CloseReason | 'UNREACHABLE' | 'CONNECTION_LOST' | 'OFFLINE' | 'SFU_MOVING';

export type RemoteParticipant = Participant & { link: LinkState; incoming: IncomingMedia | null };

export type MeetingSnapshot = {
  phase: MeetingPhase;
  end: MeetingEnd | null;
  /** While reconnecting: what happened. */
  connectionNote: ConnectionNote | null;
  isOnline: boolean;
  you: Participant | null;
  local: { media: MediaState; camera: MediaStreamTrack | null; screen: MediaStreamTrack | null };
  remotes: RemoteParticipant[];
  /** Participant ids (and LOCAL_SPEAKER) whose sound is above the speaking level. */
  speaking: ReadonlySet<string>;
  chat: ChatLine[];
  unreadChat: number;
  roomSize: number | null;
  /** A host locked the room: only hosts may join (decision 038). */
  isLocked: boolean;
  /** How media flows: browser to browser, or through the SFU (decision 037). */
  topology: MediaTopology | null;
};

export type MeetingSessionOptions = {
  roomId: string;
  userId: string;
  /** The token of the page's address, used for the first join when it is still good. */
  initialToken: string | undefined;
  /** Mints a meeting token for this user and room (POST /api/meetings/{roomId}/token). */
  fetchTicket: (roomId: string) => Promise<MeetingTicket>;
  /** What the pre-join screen opened; the session owns (and stops) them from now on. */
  camera: MediaStreamTrack | null;
  microphone: MediaStreamTrack | null;
  /** A new token was minted: the page keeps its address current with it. */
  onTokenRenewed?: (token: string) => void;
  /**
   * Something to tell the person without ending the meeting: a teacher's action (info, worded
   * here in the active locale), or the server's refusal of a message (error, worded here from its code).
   */
  onNotice?: (message: string, kind: 'info' | 'error') => void;
  socketUrl?: (token: string) => string;
};

/** Codes after which joining again (a button) may work, though the page does not retry by itself. */
const RETRYABLE: CloseReason[] = [
  'ROOM_FULL',
  'JOIN_TIMEOUT',
  'REPLACED',
  'RATE_LIMITED',
  'TOO_LARGE',
  'FRAME_TOO_LARGE',
  'ROOM_LOCKED',
];

const defaultSocketUrl = (token: string) => {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${MEETING_SOCKET_PATH}${roomSocketQuery(token)}`;
};

/**
 * One person's presence in one meeting room: the signalling socket (a room socket of the room
 * transport, lib/room-socket.ts, decision 065), a PeerLink to every other participant (full mesh)
 * or the SFU link, the local camera, microphone and screen, the room's roster and chat.
 * Framework-free; the screen reads it through `subscribe` and `getSnapshot`
 * (useSyncExternalStore) and calls its methods. This is the transport seam of decision 013: an
 * SFU implements the same surface.
 */
export class MeetingSession {
  private snapshot: MeetingSnapshot;
  private readonly listeners = new Set<() => void>();
  /** The signalling socket: tokens, reconnection with back-off, the join on each socket. */
  private readonly connection: RoomSocket<ClientMessage | PeerSignal, ServerMessage, CloseReason>;
  private readonly links = new Map<string, PeerLink>();
  /** In an SFU room, instead of the links: one connection out, one in. */
  private sfu: SfuLink | null = null;
  private topology: MediaTopology | null = null;
  /** What the screen last said it shows (the SFU link is told again when it is opened anew). */
  private visibleCameras: { participantIds: readonly string[]; layer: CameraLayer } | null = null;
  private room: RoomState = EMPTY_ROOM;
  private you: Participant | null = null;
  private iceServers: IceServer[] = [];
  private roomSize: number | null = null;
  private camera: MediaStreamTrack | null;
  private microphone: MediaStreamTrack | null;
  private screen: MediaStreamTrack | null = null;
  private readonly opening = new Set<'camera' | 'microphone' | 'screen'>();
  private isChatOpen = false;
  private disposeTimer: ReturnType<typeof setTimeout> | undefined;
  private isStarted = false;
  private readonly speaking: SpeakingDetector;
  private speakingNow: ReadonlySet<string> = new Set();
  private phase: MeetingPhase = 'joining';
  private end: MeetingEnd | null = null;
  private connectionNote: ConnectionNote | null = null;
  private isLocked = false;

  constructor(private readonly options: MeetingSessionOptions) {
    this.camera = options.camera;
    this.microphone = options.microphone;
    this.watchTrack(this.camera, () => void this.setCamera(false));
    this.watchTrack(this.microphone, () => this.dropMicrophone());
    this.speaking = new SpeakingDetector((speaking) => {
      this.speakingNow = speaking;
      this.emit();
    });
    this.speaking.listen(LOCAL_SPEAKER, this.microphone);
    this.connection = new RoomSocket({
      url: (token) => (options.socketUrl ?? defaultSocketUrl)(token),
      token: ({ attempt, hasJoined }) => this.tokenForAttempt(attempt, hasJoined),
      hello: () => ({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId: options.roomId, media: this.media }),
      closeCodes: CLOSE_CODES,
      reconnects: shouldReconnect,
      onMessage: (message) => this.handleMessage(message),
      onClose: () => this.handleClose(),
      onRetry: (note) => {
        this.phase = this.connection.hasJoined ? 'reconnecting' : 'joining';
        this.connectionNote = note;
        this.emit();
      },
      onEnd: (end) => this.handleEnd(end),
      onNetwork: () => this.emit(),
    });
    this.snapshot = this.buildSnapshot();
  }

  // -------------------------------------------------------------------------------------------
  // For React

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  // -------------------------------------------------------------------------------------------
  // Lifecycle

  start() {
    clearTimeout(this.disposeTimer);
    if (this.isStarted) return;
    this.isStarted = true;
    this.connection.start();
  }

  /** Leaves on purpose: the others see us go at once, and every device is released. */
  leave() {
    if (this.isEnded) return;
    this.send({ type: 'leave' });
    this.finish({ reason: 'LEFT', canRetry: true });
  }

  /** The page went away (navigation, unmount): as leave, without a message to show. */
  dispose() {
    this.leave();
    this.listeners.clear();
  }

  /**
   * Disposes after a tick unless started again: React's development mode mounts,
   * unmounts and mounts again at once, and that must not end the meeting.
   */
  disposeSoon() {
    this.disposeTimer = setTimeout(() => this.dispose(), 0);
  }

  // -------------------------------------------------------------------------------------------
  // Devices

  get media(): MediaState {
    return {
      mic: Boolean(this.microphone?.enabled && this.microphone.readyState === 'live'),
      camera: Boolean(this.camera && this.camera.readyState === 'live'),
      screen: Boolean(this.screen && this.screen.readyState === 'live'),
    };
  }

  /** Mutes by disabling the track (unmuting is instant); opens the microphone if there is none yet. */
  async setMicrophone(isOn: boolean) {
    if (isOn && !this.microphone) {
      const microphone = await this.openOnce(
        'microphone',
        async () => (await openDevices({ camera: false, microphone: true })).microphone,
      );
      if (!microphone) return;
      this.microphone = microphone;
      this.watchTrack(microphone, () => this.dropMicrophone());
      this.speaking.listen(LOCAL_SPEAKER, microphone);
      await this.replaceOnLinks('audio', microphone);
    } else if (this.microphone) {
      this.microphone.enabled = isOn;
    }
    this.mediaChanged();
  }

  /** The microphone was unplugged (its track ended): the others see it off; turning it on opens another. */
  private dropMicrophone() {
    this.microphone = null;
    this.speaking.listen(LOCAL_SPEAKER, null);
    void this.replaceOnLinks('audio', null);
    this.mediaChanged();
  }

  /** Turning the camera off releases it (its light goes out); turning it on opens it again. */
  async setCamera(isOn: boolean) {
    if (isOn && !this.camera) {
      const camera = await this.openOnce(
        'camera',
        async () => (await openDevices({ camera: true, microphone: false })).camera,
      );
      if (!camera) return;
      this.camera = camera;
      this.watchTrack(camera, () => void this.setCamera(false));
      await this.replaceOnLinks('camera', camera);
    } else if (!isOn && this.camera) {
      this.camera.stop();
      this.camera = null;
      await this.replaceOnLinks('camera', null);
    }
    this.mediaChanged();
  }

  async startScreenShare() {
    if (this.screen) return;
    const screen = await this.openOnce('screen', openScreen);
    if (!screen) return;
    this.screen = screen;
    // The browser's own "Stop sharing" bar ends the track.
    this.watchTrack(screen, () => void this.stopScreenShare());
    await this.replaceOnLinks('screen', screen);
    this.mediaChanged();
  }

  /**
   * Opens one device, once at a time: a second click while it opens does nothing
   * (two cameras would open and one would never be stopped). Null when it is already
   * opening, or when the meeting ended meanwhile (the track is stopped then).
   */
  private async openOnce(
    device: 'camera' | 'microphone' | 'screen',
    open: () => Promise<MediaStreamTrack | null>,
  ): Promise<MediaStreamTrack | null> {
    if (this.opening.has(device)) return null;
    this.opening.add(device);
    try {
      const track = await open();
      if (this.isEnded) {
        track?.stop();
        return null;
      }
      return track;
    } finally {
      this.opening.delete(device);
    }
  }

  async stopScreenShare() {
    if (!this.screen) return;
    this.screen.stop();
    this.screen = null;
    await this.replaceOnLinks('screen', null);
    this.mediaChanged();
  }

  // -------------------------------------------------------------------------------------------
  // The teacher runs the room (decision 038)

  /** A host's action, or raising/lowering one's own hand; false when not sent (not joined). */
  moderate(message: ModerationMessage): boolean {
    if (this.phase !== 'joined') return false;
    return this.send(message);
  }

  private applyModeration(
    message: Extract<ServerMessage, { type: 'hand' | 'hands-lowered' | 'room-lock' | 'moderated' }>,
  ) {
    switch (message.type) {
      case 'hand':
      case 'hands-lowered':
        this.room = { ...this.room, participants: applyHandEvent(this.room.participants, message) };
        if (this.you) this.you = applyHandEvent([this.you], message)[0]!;
        return;
      case 'room-lock':
        this.isLocked = message.locked;
        return;
      case 'moderated':
        // The page turns its own device off; the person may turn it on again (decision 038).
        if (message.action === 'mute') void this.setMicrophone(false);
        else void this.setCamera(false);
        this.options.onNotice?.(moderationNotice(message.action, message.by), 'info');
        return;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Chat

  /** Sends a chat line; false when it cannot be sent now (not joined, or empty). */
  sendChat(text: string): boolean {
    const parsed = chatTextSchema.safeParse(text);
    if (!parsed.success || this.phase !== 'joined') return false;
    return this.send({ type: 'chat', text: parsed.data });
  }

  setChatOpen(isOpen: boolean) {
    this.isChatOpen = isOpen;
    if (isOpen && this.room.unreadChat > 0) {
      this.room = { ...this.room, unreadChat: 0 };
      this.emit();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Connection

  /** The address's token for the first join, when it is ours and fresh; a new one otherwise. */
  private async tokenForAttempt(attempt: number, hasJoined: boolean): Promise<string> {
    const { initialToken, userId, roomId } = this.options;
    if (!hasJoined && attempt === 0 && isUsableToken(initialToken, userId, roomId)) {
      return initialToken!;
    }
    const ticket = await this.options.fetchTicket(roomId);
    // A page that left meanwhile must not get a token written into whatever address it shows now.
    if (!this.isEnded) this.options.onTokenRenewed?.(ticket.token);
    return ticket.token;
  }

  private handleMessage(message: ServerMessage) {
    switch (message.type) {
      case 'welcome':
        // A student is seated muted (decision 038): a first join follows the server; a rejoin keeps the choice.
        if (!message.you.media.mic && this.media.mic) {
          if (this.connection.hasJoined) queueMicrotask(() => this.mediaChanged());
          else if (this.microphone) this.microphone.enabled = false;
        }
        this.isLocked = message.locked;
        this.you = message.you;
        this.iceServers = message.iceServers;
        this.roomSize = message.roomSize;
        this.room = applyRoomEvent(this.room, message, this.roomContext());
        this.phase = 'joined';
        this.connectionNote = null;
        this.connection.markJoined();
        this.topology = message.topology;
        if (message.topology === 'sfu') {
          this.openSfu();
          break;
        }
        // The newcomer offers to everyone already there.
        for (const participant of message.participants) this.openLink(participant.id, true);
        this.applySendingQuality();
        break;
      case 'participant-joined':
        this.room = applyRoomEvent(this.room, message, this.roomContext());
        if (this.sfu) break; // the SFU offers their streams once they publish
        // They will offer; the link waits for it.
        if (!this.links.has(message.participant.id)) this.openLink(message.participant.id, false);
        this.applySendingQuality();
        break;
      case 'participant-left':
        this.closeLink(message.participantId);
        this.sfu?.forget(message.participantId);
        this.room = applyRoomEvent(this.room, message, this.roomContext());
        this.applySendingQuality();
        break;
      case 'offer':
      case 'answer':
      case 'candidate': {
        const link =
          this.links.get(message.from) ?? (message.type === 'offer' ? this.openLink(message.from, false) : undefined);
        if (message.type === 'candidate') link?.receive({ type: 'candidate', candidate: message.candidate });
        else link?.receive({ type: message.type, sdp: message.sdp });
        break;
      }
      case 'sfu-published':
        this.sfu?.receivePublished(message.sdp);
        break;
      case 'sfu-offer':
        this.sfu?.receiveOffer(message.sdp, message.streams, message.revision);
        break;
      case 'sfu-moving':
        // The room's video server went away: the seat stays while the server moves the room.
        this.closeSfu();
        this.connectionNote = 'SFU_MOVING';
        break;
      case 'sfu-moved':
        this.connectionNote = null;
        if (this.topology === 'sfu') this.openSfu();
        break;
      case 'chat':
      case 'media-state':
        this.room = applyRoomEvent(this.room, message, this.roomContext());
        break;
      case 'error':
        // Worded here, in the reader's language: the frame's message is the server's English, for logs.
        this.options.onNotice?.(meetingErrorText(message.code), 'error');
        break;
      case 'hand':
      case 'hands-lowered':
      case 'room-lock':
      case 'moderated':
        this.applyModeration(message);
        break;
    }
    this.emit();
  }

  /** The socket closed: its peers and roster go; the room socket then tries again or ends. */
  private handleClose() {
    this.closeAllLinks();
    this.you = null;
    this.room = { ...this.room, participants: [] };
  }

  /** The room socket gave up: a refused token, or a close that reconnecting cannot help. */
  private handleEnd(end: RoomSocketEnd<CloseReason>) {
    if (this.isEnded) return;
    if (end.kind === 'refused') {
      this.finish(
        hasSessionEnded(end.error)
          ? { reason: 'session', canRetry: false }
          : { reason: 'refused', refusal: end.error, canRetry: true },
      );
      return;
    }
    const { reason } = end;
    this.finish({ reason: reason ?? 'refused', canRetry: reason === undefined || RETRYABLE.includes(reason) });
  }

  private finish(end: MeetingEnd) {
    this.phase = 'ended';
    this.end = end;
    this.connection.close(CLOSE_CODES.LEFT);
    this.closeAllLinks();
    this.you = null;
    this.room = { ...this.room, participants: [] };
    for (const track of [this.camera, this.microphone, this.screen]) track?.stop();
    this.camera = null;
    this.microphone = null;
    this.screen = null;
    this.speaking.close();
    this.emit();
  }

  /** Read through a getter: the phase may change while an await is pending. */
  private get isEnded() {
    return this.phase === 'ended';
  }

  private send(message: ClientMessage | PeerSignal): boolean {
    return this.connection.send(message);
  }

  // -------------------------------------------------------------------------------------------
  // Peers

  private openLink(remoteId: string, isOfferer: boolean): PeerLink {
    this.closeLink(remoteId);
    const link = new PeerLink(remoteId, {
      localId: this.you?.id ?? '',
      iceServers: this.iceServers,
      isOfferer,
      tracks: (): OutgoingTracks => ({ audio: this.microphone, camera: this.camera, screen: this.screen }),
      cameraBitrate: () => cameraBitrateFor(this.links.size + 1),
      send: (signal) => this.send(signal),
      onChange: () => {
        if (this.links.get(remoteId) !== link) return;
        this.speaking.listen(remoteId, link.incoming.audio.getAudioTracks()[0] ?? null);
        this.emit();
      },
      onError: (error) => console.warn(`Meeting connection to ${remoteId} had a problem`, error),
    });
    this.links.set(remoteId, link);
    this.speaking.listen(remoteId, link.incoming.audio.getAudioTracks()[0] ?? null);
    return link;
  }

  private closeLink(remoteId: string) {
    const link = this.links.get(remoteId);
    if (!link) return;
    link.close();
    this.links.delete(remoteId);
    this.speaking.listen(remoteId, null);
  }

  private closeAllLinks() {
    for (const remoteId of [...this.links.keys()]) this.closeLink(remoteId);
    this.closeSfu();
  }

  private closeSfu() {
    if (!this.sfu) return;
    this.sfu.close();
    this.sfu = null;
    for (const participant of this.room.participants) this.speaking.listen(participant.id, null);
  }

  /** An SFU room: publish once, and receive whatever the server offers. */
  private openSfu() {
    const sfu = new SfuLink({
      iceServers: this.iceServers,
      tracks: (): OutgoingTracks => ({ audio: this.microphone, camera: this.camera, screen: this.screen }),
      send: (signal) => this.send(signal),
      onChange: () => {
        if (this.sfu !== sfu) return;
        for (const participant of this.room.participants) {
          this.speaking.listen(participant.id, sfu.incomingFor(participant.id).audio.getAudioTracks()[0] ?? null);
        }
        this.emit();
      },
      onError: (error) => {
        console.warn('The meeting connection to the video server had a problem', error);
        // Start again from a fresh socket: the server makes new connections on the SFU.
        if (this.sfu === sfu) this.connection.reconnect();
      },
    });
    this.sfu = sfu;
    void sfu.publish().catch((error: unknown) => console.warn('Could not publish to the video server', error));
    // A link opened again (the room moved to another video server) starts from what the screen shows.
    if (this.visibleCameras) sfu.view(this.visibleCameras.participantIds, this.visibleCameras.layer);
  }

  /** Whose camera the screen shows now, and how large: in an SFU room only those are received. */
  setVisibleCameras(participantIds: readonly string[], layer: CameraLayer) {
    this.visibleCameras = { participantIds, layer };
    this.sfu?.view(participantIds, layer);
  }

  private async replaceOnLinks(slot: MediaSlot, track: MediaStreamTrack | null) {
    await Promise.all([
      ...[...this.links.values()].map((link) => link.replaceTrack(slot, track)),
      this.sfu?.replaceTrack(slot, track),
    ]);
  }

  private applySendingQuality() {
    const bitrate = cameraBitrateFor(this.links.size + 1);
    for (const link of this.links.values()) void link.limitCameraBitrate(bitrate);
  }

  private mediaChanged() {
    this.send({ type: 'media-state', state: this.media });
    this.emit();
  }

  /** A track the browser ends by itself (camera unplugged, "Stop sharing" pressed). */
  private watchTrack(track: MediaStreamTrack | null, onEnded: () => void) {
    track?.addEventListener('ended', onEnded, { once: true });
  }

  private roomContext() {
    return { youId: this.you?.id, isChatOpen: this.isChatOpen };
  }

  // -------------------------------------------------------------------------------------------
  // Snapshot

  private buildSnapshot(): MeetingSnapshot {
    return {
      phase: this.phase,
      end: this.end,
      connectionNote: this.connectionNote,
      isOnline: navigator.onLine,
      you: this.you,
      local: { media: this.media, camera: this.camera, screen: this.screen },
      remotes: this.room.participants.map((participant) => {
        if (this.sfu) return { ...participant, link: this.sfu.state, incoming: this.sfu.incomingFor(participant.id) };
        const link = this.links.get(participant.id);
        return { ...participant, link: link?.state ?? 'connecting', incoming: link?.incoming ?? null };
      }),
      speaking: this.speakingNow,
      chat: this.room.chat,
      unreadChat: this.room.unreadChat,
      roomSize: this.roomSize,
      isLocked: this.isLocked,
      topology: this.topology,
    };
  }

  private emit() {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }
}
