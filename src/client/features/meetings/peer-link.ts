import type { IceCandidate, IceServer } from '#shared/meetings';

/** What a link sends to its peer through the signalling socket. */
export type PeerSignal =
  | { type: 'offer'; to: string; sdp: string }
  | { type: 'answer'; to: string; sdp: string }
  | { type: 'candidate'; to: string; candidate: IceCandidate };

/** The three tracks a participant sends, each on its own transceiver, in this order. */
export type OutgoingTracks = {
  audio: MediaStreamTrack | null;
  camera: MediaStreamTrack | null;
  screen: MediaStreamTrack | null;
};
const SLOTS = ['audio', 'camera', 'screen'] as const;
type Slot = (typeof SLOTS)[number];

export type LinkState = 'connecting' | 'connected' | 'failed';

/** What we receive from one peer: their sound, camera and screen, each a stream of one track. */
export type IncomingMedia = { audio: MediaStream; camera: MediaStream; screen: MediaStream };

/**
 * One browser-to-browser connection of the mesh (decision 013).
 *
 * Every connection carries exactly three transceivers — sound, camera, screen —
 * created by the side that offers (the newcomer) and adopted by the other when the
 * offer arrives. Turning a camera off or sharing a screen then swaps the track on a
 * transceiver (`replaceTrack`) and needs no new offer. Renegotiation still happens
 * (an ICE restart after a network change), so both sides follow the perfect-negotiation
 * pattern; the peer with the smaller participant id is the polite one.
 */
export class PeerLink {
  readonly connection: RTCPeerConnection;
  readonly incoming: IncomingMedia;
  state: LinkState = 'connecting';
  private readonly transceivers = new Map<Slot, RTCRtpTransceiver>();
  private makingOffer = false;
  private ignoreOffer = false;
  /** Signals of this peer are applied one after another: a candidate must wait for its offer. */
  private queue: Promise<void> = Promise.resolve();
  private isClosed = false;

  constructor(
    readonly remoteId: string,
    private readonly options: {
      localId: string;
      iceServers: IceServer[];
      /** The newcomer makes the first offer; the other side waits for it. */
      isOfferer: boolean;
      tracks: () => OutgoingTracks;
      /** The camera's bitrate cap for the room as it is now (applied once connected, and on room changes). */
      cameraBitrate: () => number;
      send: (signal: PeerSignal) => void;
      onChange: () => void;
      onError: (error: unknown) => void;
    },
  ) {
    this.connection = new RTCPeerConnection({ iceServers: options.iceServers });
    this.incoming = { audio: new MediaStream(), camera: new MediaStream(), screen: new MediaStream() };
    this.connection.onicecandidate = ({ candidate }) => {
      if (candidate)
        this.options.send({ type: 'candidate', to: remoteId, candidate: candidate.toJSON() as IceCandidate });
    };
    this.connection.onnegotiationneeded = () => void this.offer();
    this.connection.onconnectionstatechange = () => this.handleConnectionState();
    this.connection.ontrack = ({ transceiver }) => this.adoptIncoming(transceiver);
    if (options.isOfferer) {
      const tracks = options.tracks();
      for (const slot of SLOTS) {
        const track = tracks[slot];
        const transceiver = this.connection.addTransceiver(track ?? (slot === 'audio' ? 'audio' : 'video'), {
          direction: 'sendrecv',
        });
        this.transceivers.set(slot, transceiver);
        this.adoptIncoming(transceiver, { isQuiet: true }); // the owner reads `incoming` once constructed
      }
    }
  }

  /** The polite peer gives way when both offer at once. */
  private get isPolite() {
    return this.options.localId < this.remoteId;
  }

  /** Applies an offer, answer or candidate from this peer, in arrival order. */
  receive(signal: { type: 'offer' | 'answer'; sdp: string } | { type: 'candidate'; candidate: IceCandidate }) {
    this.queue = this.queue
      .then(() => (signal.type === 'candidate' ? this.addCandidate(signal.candidate) : this.describe(signal)))
      .catch((error: unknown) => {
        if (!this.isClosed) this.options.onError(error);
      });
  }

  /** Puts a new outgoing track (or none) on its transceiver; no renegotiation needed. */
  async replaceTrack(slot: Slot, track: MediaStreamTrack | null) {
    const transceiver = this.transceivers.get(slot);
    if (transceiver && !this.isClosed) await transceiver.sender.replaceTrack(track);
  }

  /** Caps the camera's bitrate: with more people, each browser sends more copies of it. */
  async limitCameraBitrate(maxBitrate: number) {
    const sender = this.transceivers.get('camera')?.sender;
    if (!sender || this.isClosed) return;
    const parameters = sender.getParameters();
    if (!parameters.encodings?.length) return; // not negotiated yet; applied again when the room changes
    for (const encoding of parameters.encodings) encoding.maxBitrate = maxBitrate;
    await sender.setParameters(parameters).catch(() => undefined); // best effort
  }

  close() {
    this.isClosed = true;
    this.connection.close();
  }

  private async offer() {
    try {
      this.makingOffer = true;
      await this.connection.setLocalDescription();
      const description = this.connection.localDescription;
      if (description) this.options.send({ type: 'offer', to: this.remoteId, sdp: description.sdp });
    } catch (error) {
      if (!this.isClosed) this.options.onError(error);
    } finally {
      this.makingOffer = false;
    }
  }

  private async describe(signal: { type: 'offer' | 'answer'; sdp: string }) {
    const isCollision = signal.type === 'offer' && (this.makingOffer || this.connection.signalingState !== 'stable');
    this.ignoreOffer = !this.isPolite && isCollision;
    if (this.ignoreOffer) return;
    await this.connection.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
    if (signal.type !== 'offer') return;
    if (this.transceivers.size === 0) this.adoptOfferedTransceivers();
    await this.connection.setLocalDescription();
    const description = this.connection.localDescription;
    if (description) this.options.send({ type: 'answer', to: this.remoteId, sdp: description.sdp });
  }

  /** The answering side takes the offerer's three transceivers as its own and sends on them. */
  private adoptOfferedTransceivers() {
    const offered = this.connection.getTransceivers();
    const tracks = this.options.tracks();
    SLOTS.forEach((slot, index) => {
      const transceiver = offered[index];
      if (!transceiver) return;
      transceiver.direction = 'sendrecv';
      this.transceivers.set(slot, transceiver);
      this.adoptIncoming(transceiver);
      void transceiver.sender.replaceTrack(tracks[slot]);
    });
  }

  private async addCandidate(candidate: IceCandidate) {
    try {
      await this.connection.addIceCandidate(candidate);
    } catch (error) {
      // Candidates of an offer we ignored (glare) are expected to fail.
      if (!this.ignoreOffer) throw error;
    }
  }

  /** Each received track goes into the stream of its slot (found by transceiver order). */
  private adoptIncoming(transceiver: RTCRtpTransceiver, { isQuiet = false } = {}) {
    const index = this.connection.getTransceivers().indexOf(transceiver);
    const slot = SLOTS[index];
    if (!slot) return;
    const stream = this.incoming[slot];
    const track = transceiver.receiver.track;
    if (!stream.getTracks().includes(track)) {
      for (const old of stream.getTracks()) stream.removeTrack(old);
      stream.addTrack(track);
      if (!isQuiet) this.options.onChange();
    }
  }

  private handleConnectionState() {
    const state = this.connection.connectionState;
    const next: LinkState = state === 'connected' ? 'connected' : state === 'failed' ? 'failed' : 'connecting';
    // A failed path (a network change) is tried again with fresh candidates.
    if (state === 'failed') this.connection.restartIce();
    // Encodings exist once negotiated: the first moment the cap can be set on this sender.
    if (next === 'connected' && this.state !== 'connected') void this.limitCameraBitrate(this.options.cameraBitrate());
    if (next !== this.state) {
      this.state = next;
      this.options.onChange();
    }
  }
}
