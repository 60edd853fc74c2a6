import {
  MEDIA_SLOTS,
  type CameraLayer,
  type IceCandidate,
  type IceServer,
  type MediaSlot,
  type SfuRequest,
  type SubscribedStream,
} from '#shared/meetings';
import type { IncomingMedia, LinkState, OutgoingTracks } from './peer-link.ts';

/**
 * The camera's simulcast layers (full, half and quarter size): the SFU forwards to each viewer
 * the layer its tiles and link need (CameraLayer), so a phone on a weak link gets the smallest.
 * Highest first: Janus numbers the layers it is offered from the last, so substream 0 is the
 * quarter size (an e2e test checks which one arrives).
 */
export const CAMERA_ENCODINGS: RTCRtpEncodingParameters[] = [
  { rid: 'f', scaleResolutionDownBy: 1, maxBitrate: 1_200_000 },
  { rid: 'h', scaleResolutionDownBy: 2, maxBitrate: 500_000 },
  { rid: 'q', scaleResolutionDownBy: 4, maxBitrate: 150_000 },
];

const emptyIncoming = (): IncomingMedia => ({
  audio: new MediaStream(),
  camera: new MediaStream(),
  screen: new MediaStream(),
});

/**
 * This browser's media in an SFU room (decision 037): one connection that publishes our sound,
 * camera (simulcast) and screen once, whatever the room's size, and one that receives the
 * others' streams as the server offers them. The server negotiates with Janus for us; each
 * offered stream comes named by its owner and slot, so tiles stay per person as in the mesh.
 */
export class SfuLink {
  readonly publisher: RTCPeerConnection;
  private subscriber: RTCPeerConnection | null = null;
  private readonly senders = new Map<MediaSlot, RTCRtpTransceiver>();
  private readonly incoming = new Map<string, IncomingMedia>();
  private streamsByMid = new Map<string, SubscribedStream>();
  /** Offers from the server are applied one after another. */
  private queue: Promise<void> = Promise.resolve();
  private lastView = '';
  private isClosed = false;

  constructor(
    private readonly options: {
      iceServers: IceServer[];
      tracks: () => OutgoingTracks;
      send: (signal: SfuRequest) => void;
      onChange: () => void;
      onError: (error: unknown) => void;
    },
  ) {
    this.publisher = new RTCPeerConnection({ iceServers: options.iceServers });
    this.publisher.onicecandidate = ({ candidate }) => this.sendCandidate('publisher', candidate);
    this.publisher.onconnectionstatechange = () => {
      if (this.publisher.connectionState === 'failed') this.options.onError(new Error('publishing failed'));
      this.options.onChange();
    };
  }

  /** Offers our three transceivers (sound, camera with its layers, screen) to the SFU. */
  async publish() {
    const tracks = this.options.tracks();
    for (const slot of MEDIA_SLOTS) {
      const track = tracks[slot];
      const transceiver = this.publisher.addTransceiver(track ?? (slot === 'audio' ? 'audio' : 'video'), {
        direction: 'sendonly',
        ...(slot === 'camera' ? { sendEncodings: CAMERA_ENCODINGS } : {}),
      });
      this.senders.set(slot, transceiver);
    }
    await this.publisher.setLocalDescription();
    const sdp = this.publisher.localDescription?.sdp;
    if (!sdp || this.isClosed) return;
    const slots = Object.fromEntries(MEDIA_SLOTS.map((slot) => [slot, this.senders.get(slot)?.mid ?? ''])) as Record<
      MediaSlot,
      string
    >;
    this.options.send({ type: 'sfu-publish', sdp, slots });
  }

  /** The SFU's answer to our publishing offer. */
  receivePublished(sdp: string) {
    this.enqueue(() => this.publisher.setRemoteDescription({ type: 'answer', sdp }));
  }

  /**
   * The subscription's (new) offer: answered, and each stream put in its owner's tile. The answer
   * names the offer's revision: a slow page may answer an offer the server sent twice twice.
   */
  receiveOffer(sdp: string, streams: SubscribedStream[], revision: number) {
    this.enqueue(async () => {
      if (this.isClosed) return; // queued before close(): no connection is opened after it
      const subscriber = this.subscriber ?? this.openSubscriber();
      await subscriber.setRemoteDescription({ type: 'offer', sdp });
      await subscriber.setLocalDescription();
      const answer = subscriber.localDescription?.sdp;
      if (!answer || this.isClosed) return;
      this.streamsByMid = new Map(streams.map((stream) => [stream.mid, stream]));
      this.placeTracks();
      this.options.send({ type: 'sfu-answer', sdp: answer, revision });
    });
  }

  /** What we receive of one participant (the same streams for as long as they are in the room). */
  incomingFor(participantId: string): IncomingMedia {
    let media = this.incoming.get(participantId);
    if (!media) {
      media = emptyIncoming();
      this.incoming.set(participantId, media);
    }
    return media;
  }

  /** Whether media flows to and from the SFU: the tiles' "connecting" mark. */
  get state(): LinkState {
    const states = [this.publisher.connectionState, this.subscriber?.connectionState ?? 'new'];
    if (states.includes('failed')) return 'failed';
    return states.every((state) => state === 'connected') ? 'connected' : 'connecting';
  }

  /** Forgets a participant who left (the SFU has already taken their streams away). */
  forget(participantId: string) {
    this.incoming.delete(participantId);
  }

  /** Puts a new outgoing track (or none) on its transceiver; no renegotiation needed. */
  async replaceTrack(slot: MediaSlot, track: MediaStreamTrack | null) {
    const transceiver = this.senders.get(slot);
    if (transceiver && !this.isClosed) await transceiver.sender.replaceTrack(track);
  }

  /** Whose camera is on screen now, and in which layer: the SFU forwards only those (sound and screens always). */
  view(participantIds: readonly string[], layer: CameraLayer) {
    const cameras = [...participantIds].sort();
    const key = `${layer}:${cameras.join(',')}`;
    if (key === this.lastView) return;
    this.lastView = key;
    this.options.send({ type: 'sfu-view', cameras, layer });
  }

  close() {
    this.isClosed = true;
    this.publisher.close();
    this.subscriber?.close();
  }

  private openSubscriber(): RTCPeerConnection {
    const subscriber = new RTCPeerConnection({ iceServers: this.options.iceServers });
    subscriber.onicecandidate = ({ candidate }) => this.sendCandidate('subscriber', candidate);
    subscriber.onconnectionstatechange = () => {
      if (subscriber.connectionState === 'failed') this.options.onError(new Error('receiving failed'));
      this.options.onChange();
    };
    subscriber.ontrack = () => this.placeTracks();
    this.subscriber = subscriber;
    return subscriber;
  }

  /** Each received track goes into its owner's stream of its slot, replacing what was there. */
  private placeTracks() {
    const subscriber = this.subscriber;
    if (!subscriber) return;
    const placed = new Map<MediaStream, MediaStreamTrack>();
    for (const transceiver of subscriber.getTransceivers()) {
      const stream = transceiver.mid === null ? undefined : this.streamsByMid.get(transceiver.mid);
      if (!stream || transceiver.currentDirection === 'inactive') continue;
      placed.set(this.incomingFor(stream.participantId)[stream.slot], transceiver.receiver.track);
    }
    let isChanged = false;
    for (const media of this.incoming.values()) {
      for (const slot of MEDIA_SLOTS) {
        const stream = media[slot];
        const track = placed.get(stream);
        const current = stream.getTracks();
        if (track ? current.length === 1 && current[0] === track : current.length === 0) continue;
        for (const old of current) stream.removeTrack(old);
        if (track) stream.addTrack(track);
        isChanged = true;
      }
    }
    if (isChanged) this.options.onChange();
  }

  private sendCandidate(connection: 'publisher' | 'subscriber', candidate: RTCIceCandidate | null) {
    if (this.isClosed) return;
    // null ends gathering: Janus is told with an empty candidate.
    const init = candidate ? (candidate.toJSON() as IceCandidate) : { candidate: '' };
    this.options.send({ type: 'sfu-candidate', connection, candidate: init });
  }

  private enqueue(step: () => Promise<void>) {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      if (!this.isClosed) this.options.onError(error);
    });
  }
}
