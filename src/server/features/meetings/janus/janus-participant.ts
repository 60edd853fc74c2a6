/**
 * One participant of an SFU room, on Janus's side (decision 037): our server makes every Janus
 * request for the browser, so the browser never holds a Janus credential and can only publish
 * into and subscribe from the room its meeting token names.
 *
 * Two VideoRoom handles: the publisher (the browser's one outgoing connection: sound, camera
 * with simulcast, screen) and the subscriber (one incoming connection carrying the others'
 * streams). The subscriber follows the room: a new publisher is added, one who leaves is taken
 * away by Janus itself (autoupdate), and a camera is forwarded only while the browser shows it
 * (`view`), while sound and screens always are.
 */
import type { Jsep } from 'janode';
import VideoRoomPlugin, {
  type Publisher,
  type StreamRef,
  type SubscriberStream,
  type VideoRoomHandle,
} from 'janode/plugins/videoroom';
import {
  CAMERA_LAYERS,
  MEDIA_SLOTS,
  type CameraLayer,
  type IceCandidate,
  type MediaSlot,
  type ServerMessage,
  type SubscribedStream,
} from '#shared/meetings';
import { withTimeout, type JanusGateway, type JanusRoomSpec } from './janus-gateway.ts';

/**
 * How long the browser may take to answer the subscription's offers, and how room changes are
 * gathered into one offer (decision 044). The first offer (a join) is small; an update reaches
 * every page of the room at once when someone joins or leaves, and a slow school laptop under load
 * takes far longer to apply it (issue 30): its current media keeps flowing meanwhile, so it gets
 * longer, and the offer once more, before it is given up on. Tests pass shorter ones.
 */
export type SubscriptionTiming = {
  /** The first offer's answer (a join). */
  joinAnswerMs: number;
  /** Each send of an update's answer. */
  updateAnswerMs: number;
  /** How many times an update is sent before the participant is given up on. */
  updateSends: number;
  /**
   * A room change waits this long before the subscription follows it, so a burst (someone leaves
   * and the pages' views change, several people join) becomes one update, one offer to answer.
   */
  coalesceMs: number;
};

export const SUBSCRIPTION_TIMING: SubscriptionTiming = {
  joinAnswerMs: 30_000,
  updateAnswerMs: 45_000,
  updateSends: 2,
  coalesceMs: 150,
};

/**
 * How long one of this participant's requests may wait for Janus: a Janus that stops answering
 * without closing the connection would otherwise hold the participant (and its queue) forever.
 * Past it the participant fails, and the page reconnects.
 */
const REQUEST_TIMEOUT_MS = 15_000;
const answered = <T>(request: Promise<T>) => withTimeout(request, REQUEST_TIMEOUT_MS);

const DETACH_TIMEOUT_MS = 2_000;

/** Janus's refusal of a subscription naming a feed that has just gone. */
const NO_SUCH_FEED = 428;
const MAX_GONE_FEED_RETRIES = 5;
const GONE_FEED_RETRY_MS = 300;

type PublishedSlots = Record<MediaSlot, string>;
/** The mids of a feed's streams per slot, from the descriptions its publisher gave. */
type FeedStreams = Partial<Record<MediaSlot, string>>;

const streamKey = (feed: string, mid: string) => `${feed}\u0000${mid}`;

export type JanusParticipantOptions = {
  gateway: JanusGateway;
  room: JanusRoomSpec;
  /** Our participant id: the feed id on Janus too, so the others' streams name their owner. */
  id: string;
  send: (message: ServerMessage) => void;
  /** Janus refused or lost this participant: the socket is closed and the page reconnects. */
  onFailure: (error: unknown) => void;
  timing?: SubscriptionTiming;
};

export class JanusParticipant {
  #publisher: VideoRoomHandle | undefined;
  #subscriber: VideoRoomHandle | undefined;
  /** Feeds of the others now publishing, with their streams. */
  readonly #feeds = new Map<string, FeedStreams>();
  /** Streams the subscription holds now, by feed and publisher mid. */
  readonly #subscribed = new Map<string, StreamRef & { mid: string }>();
  /** Whose camera the browser shows: none until it says (a joiner must not receive thirty at once). */
  #cameras: ReadonlySet<string> = new Set();
  /** The simulcast layer the browser wants its cameras in (the lowest until it says). */
  #layer: CameraLayer = 'low';
  /** The subscription's camera streams (by our mid) and the layer Janus was last told for each. */
  #cameraLayers = new Map<string, CameraLayer | undefined>();
  /** The mid of the browser's sound on the publisher connection, once it has published. */
  #audioMid: string | undefined;
  /** Whether Janus may forward this participant's sound: only while the room shows their microphone on. */
  #isAudioAllowed = false;
  /** What Janus was last told (undefined: nothing yet, so it forwards). */
  #audioModeration: 'muted' | 'unmuted' | undefined;
  /** Moderation requests, one at a time and apart from the subscription (which may wait for a slow browser). */
  #moderation: Promise<void> = Promise.resolve();
  /** Subscription changes Janus refused in a row because a feed had just left (428). */
  #goneFeedRetries = 0;
  /** The latest offer's number: the page's answer names the offer it answers. */
  #revision = 0;
  #pendingAnswer: { resolve: (sdp: string) => void; reject: (error: Error) => void } | undefined;
  /** Subscription changes, one at a time: each is an offer the browser must answer first. */
  #queue: Promise<void> = Promise.resolve();
  #isSyncQueued = false;
  #hasJoinedSubscriber = false;
  /** The browser has answered the first subscription offer: later offers are updates. */
  #hasStarted = false;
  #isClosed = false;

  readonly #timing: SubscriptionTiming;

  constructor(private readonly options: JanusParticipantOptions) {
    this.#timing = options.timing ?? SUBSCRIPTION_TIMING;
  }

  /** The browser's publishing offer: joins the room as a publisher (or renegotiates) and answers. */
  async publish(sdp: string, slots: PublishedSlots): Promise<void> {
    const { gateway, room, id } = this.options;
    if (this.#publisher) {
      const { jsep } = await answered(this.#publisher.configure({ jsep: { type: 'offer', sdp } }));
      if (jsep) this.options.send({ type: 'sfu-published', sdp: jsep.sdp });
      return;
    }
    await gateway.ensureRoom(room);
    const handle = await gateway.attachVideoRoom();
    if (this.#isClosed) {
      await handle.detach().catch(() => {});
      return;
    }
    this.#publisher = handle;
    handle.on(VideoRoomPlugin.EVENT.VIDEOROOM_PUB_LIST, ({ publishers }: { publishers: Publisher[] }) =>
      this.#addFeeds(publishers),
    );
    const gone = ({ feed }: { feed: string | number }) => this.#removeFeed(String(feed));
    handle.on(VideoRoomPlugin.EVENT.VIDEOROOM_UNPUBLISHED, gone);
    handle.on(VideoRoomPlugin.EVENT.VIDEOROOM_LEAVING, gone);
    // The room went away under us (Janus restarted it, or it was destroyed): start again.
    handle.on(VideoRoomPlugin.EVENT.VIDEOROOM_DESTROYED, () => this.options.onFailure(new Error('room destroyed')));
    const joined = await answered(
      handle.joinConfigurePublisher({
        room: room.room,
        pin: room.pin,
        feed: id,
        display: id,
        jsep: { type: 'offer', sdp },
        descriptions: MEDIA_SLOTS.map((slot) => ({ mid: slots[slot], description: slot })),
      }),
    );
    if (!joined.jsep) throw new Error('Janus did not answer the publishing offer');
    this.options.send({ type: 'sfu-published', sdp: joined.jsep.sdp });
    this.#audioMid = slots.audio;
    this.#scheduleModeration();
    this.#addFeeds(joined.publishers);
  }

  /**
   * Whether Janus forwards this participant's sound (decision 038): a teacher's mute, or a
   * microphone the room shows off, holds at Janus (VideoRoom `moderate`), so a page that ignores
   * the mute is still not heard.
   */
  allowAudio(allowed: boolean): void {
    this.#isAudioAllowed = allowed;
    this.#scheduleModeration();
  }

  #scheduleModeration() {
    this.#moderation = this.#moderation
      .then(() => this.#applyModeration())
      .catch((error: unknown) => {
        if (!this.#isClosed) this.options.onFailure(error);
      });
  }

  async #applyModeration() {
    const publisher = this.#publisher;
    const wanted = this.#isAudioAllowed ? 'unmuted' : 'muted';
    if (!publisher || this.#audioMid === undefined || this.#isClosed || this.#audioModeration === wanted) return;
    const { room, id } = this.options;
    await answered(
      publisher.message({
        request: 'moderate',
        room: room.room,
        secret: room.secret,
        id,
        mid: this.#audioMid,
        mute: wanted === 'muted',
      }),
    );
    this.#audioModeration = wanted;
  }

  /**
   * The browser's answer to the subscription's offer: taken for the offer that waits, unless it
   * names an earlier one (a slow page answering both sends of an offer answers the second late).
   */
  answer(sdp: string, revision?: number): void {
    if (revision !== undefined && revision !== this.#revision) return;
    const pending = this.#pendingAnswer;
    this.#pendingAnswer = undefined;
    pending?.resolve(sdp);
  }

  /** An ICE candidate of one of the browser's two connections; an empty one ends its gathering. */
  async candidate(connection: 'publisher' | 'subscriber', candidate: IceCandidate): Promise<void> {
    // The socket hands us messages one at a time, so the publisher has joined before its candidates.
    const handle = connection === 'publisher' ? this.#publisher : this.#subscriber;
    if (handle) await this.#trickle(handle, candidate);
  }

  async #trickle(handle: VideoRoomHandle, candidate: IceCandidate) {
    await answered(candidate.candidate === '' ? handle.trickleComplete() : handle.trickle(candidate));
  }

  /** Whose camera the browser shows now, and in which layer: only those are forwarded (sound and screens always). */
  view(cameras: readonly string[], layer: CameraLayer): void {
    this.#cameras = new Set(cameras);
    this.#layer = layer;
    this.#scheduleSync();
  }

  async close(): Promise<void> {
    this.#isClosed = true;
    this.#pendingAnswer?.reject(new Error('closed'));
    this.#pendingAnswer = undefined;
    const handles = [this.#publisher, this.#subscriber].filter((handle) => handle !== undefined);
    this.#publisher = undefined;
    this.#subscriber = undefined;
    // Detaching hangs up and leaves: the others' subscriptions drop our streams. A Janus that died
    // answers nothing: the participant moves on without waiting for it.
    await Promise.all(handles.map(async (handle) => withTimeout(handle.detach(), DETACH_TIMEOUT_MS).catch(() => {})));
  }

  #addFeeds(publishers: Publisher[]) {
    for (const publisher of publishers) {
      const feed = String(publisher.feed);
      if (feed === this.options.id) continue;
      const streams: FeedStreams = {};
      for (const stream of publisher.streams ?? []) {
        const slot = MEDIA_SLOTS.find((candidate) => candidate === stream.description);
        if (slot && !stream.disabled) streams[slot] = stream.mid;
      }
      this.#feeds.set(feed, streams);
    }
    this.#scheduleSync();
  }

  #removeFeed(feed: string) {
    if (!this.#feeds.delete(feed)) return;
    // Janus takes its streams out of our subscription itself (autoupdate) and sends a new offer.
    for (const [key, stream] of this.#subscribed) if (String(stream.feed) === feed) this.#subscribed.delete(key);
  }

  /** What the subscription should hold now. */
  #wanted(): Map<string, StreamRef & { mid: string }> {
    const wanted = new Map<string, StreamRef & { mid: string }>();
    for (const [feed, streams] of this.#feeds) {
      for (const slot of MEDIA_SLOTS) {
        const mid = streams[slot];
        if (mid === undefined) continue;
        if (slot === 'camera' && !this.#cameras.has(feed)) continue;
        wanted.set(streamKey(feed, mid), { feed, mid });
      }
    }
    return wanted;
  }

  /** Brings the subscription to what is wanted once the change in progress is done. */
  #scheduleSync() {
    if (this.#isSyncQueued || this.#isClosed) return;
    this.#isSyncQueued = true;
    this.#enqueue(async () => {
      await new Promise((resolve) => setTimeout(resolve, this.#timing.coalesceMs));
      this.#isSyncQueued = false;
      await this.#sync();
    });
  }

  #enqueue(step: () => Promise<void>) {
    this.#queue = this.#queue.then(step).catch((error: unknown) => {
      if (!this.#isClosed) this.options.onFailure(error);
    });
  }

  async #sync() {
    if (this.#isClosed) return;
    const wanted = this.#wanted();
    const subscribe = [...wanted].filter(([key]) => !this.#subscribed.has(key)).map(([, stream]) => stream);
    const unsubscribe = [...this.#subscribed].filter(([key]) => !wanted.has(key)).map(([, stream]) => stream);
    if (subscribe.length === 0 && unsubscribe.length === 0) return await this.#applyLayer();
    const { room } = this.options;
    let result: { streams?: SubscriberStream[]; jsep?: Jsep };
    if (!this.#subscriber) {
      const handle = await this.options.gateway.attachVideoRoom();
      if (this.#isClosed) {
        await handle.detach().catch(() => {});
        return;
      }
      this.#subscriber = handle;
      // A publisher left: Janus renegotiates by itself, with an offer we pass on like ours.
      handle.on(VideoRoomPlugin.EVENT.VIDEOROOM_UPDATED, (update: { streams?: SubscriberStream[]; jsep?: Jsep }) => {
        if (update.jsep) this.#enqueue(() => this.#negotiate(update));
      });
    }
    const subscriber = this.#subscriber;
    try {
      result = !this.#hasJoinedSubscriber
        ? await answered(
            subscriber.joinSubscriber({ room: room.room, pin: room.pin, streams: subscribe, use_msid: false }),
          )
        : // Janus refuses an empty list (430): only the changes there are.
          await answered(
            subscriber.update({
              ...(subscribe.length > 0 ? { subscribe } : {}),
              ...(unsubscribe.length > 0 ? { unsubscribe } : {}),
            }),
          );
    } catch (error) {
      // A publisher left between our last look and this request: Janus refuses the whole change.
      // Its leaving reaches us on the publisher handle; try again once it has.
      if ((error as { _code?: unknown })._code !== NO_SUCH_FEED || this.#goneFeedRetries >= MAX_GONE_FEED_RETRIES) {
        throw error;
      }
      this.#goneFeedRetries += 1;
      setTimeout(() => this.#scheduleSync(), GONE_FEED_RETRY_MS).unref();
      return;
    }
    this.#goneFeedRetries = 0;
    this.#hasJoinedSubscriber = true;
    for (const stream of unsubscribe) this.#subscribed.delete(streamKey(String(stream.feed), stream.mid));
    for (const stream of subscribe) {
      // A feed that left while Janus answered is not kept: Janus took its streams away.
      if (this.#feeds.has(String(stream.feed)))
        this.#subscribed.set(streamKey(String(stream.feed), stream.mid), stream);
    }
    await this.#negotiate(result);
  }

  /**
   * Passes Janus's offer to the browser, waits for its answer and starts (or updates) the flow.
   * An update's answer may come late from a slow browser: the offer is sent once more, and the
   * participant is given up on only when neither was answered.
   */
  async #negotiate({ streams, jsep }: { streams?: SubscriberStream[]; jsep?: Jsep }) {
    const subscriber = this.#subscriber;
    if (!jsep || !subscriber || this.#isClosed) return;
    const isUpdate = this.#hasStarted;
    const presented = this.#presentStreams(streams ?? []);
    this.#revision += 1;
    const revision = this.#revision;
    const answer = new Promise<string>((resolve, reject) => {
      this.#pendingAnswer = { resolve, reject };
    });
    answer.catch(() => {}); // awaited below; closing may reject it between two sends
    const { joinAnswerMs, updateAnswerMs, updateSends } = this.#timing;
    const sends = isUpdate ? updateSends : 1;
    let timer: NodeJS.Timeout | undefined;
    let sdp: string | undefined;
    try {
      for (let send = 0; send < sends && sdp === undefined; send += 1) {
        this.options.send({ type: 'sfu-offer', sdp: jsep.sdp, streams: presented, revision });
        sdp = await Promise.race([
          answer,
          new Promise<undefined>((resolve) => {
            timer = setTimeout(() => resolve(undefined), isUpdate ? updateAnswerMs : joinAnswerMs);
          }),
        ]);
        clearTimeout(timer);
      }
    } finally {
      clearTimeout(timer);
    }
    if (sdp === undefined) {
      this.#pendingAnswer = undefined;
      throw new Error('the browser did not answer the subscription');
    }
    if (this.#isClosed) return;
    await answered(subscriber.start({ jsep: { type: 'answer', sdp } }));
    this.#hasStarted = true;
    const cameraMids = presented.filter((stream) => stream.slot === 'camera').map((stream) => stream.mid);
    this.#cameraLayers = new Map(cameraMids.map((mid) => [mid, this.#cameraLayers.get(mid)]));
    await this.#applyLayer();
  }

  /**
   * Tells Janus which simulcast layer (substream) to forward of each camera whose layer is not
   * the wanted one yet: no renegotiation, Janus switches at the next keyframe.
   */
  async #applyLayer() {
    const layer = this.#layer;
    const mids = [...this.#cameraLayers].filter(([, applied]) => applied !== layer).map(([mid]) => mid);
    if (mids.length === 0 || !this.#subscriber || this.#isClosed) return;
    const substream = CAMERA_LAYERS.indexOf(layer);
    try {
      await answered(this.#subscriber.configure({ streams: mids.map((mid) => ({ mid, substream })) }));
    } catch {
      // A camera that went meanwhile: the layer is only a preference, tried again at the next change.
      return;
    }
    for (const mid of mids) if (this.#cameraLayers.has(mid)) this.#cameraLayers.set(mid, layer);
  }

  /** The subscription's live streams, each named by its owner and slot. */
  #presentStreams(streams: SubscriberStream[]): SubscribedStream[] {
    const presented: SubscribedStream[] = [];
    for (const stream of streams) {
      if (stream.active === false || stream.feed_id === undefined || stream.feed_mid === undefined) continue;
      const participantId = String(stream.feed_id);
      const feedStreams = this.#feeds.get(participantId);
      const slot = MEDIA_SLOTS.find((candidate) => feedStreams?.[candidate] === stream.feed_mid);
      if (slot) presented.push({ mid: stream.mid, participantId, slot });
    }
    return presented;
  }
}
