/**
 * Tests only: a stand-in for Janus's WebSocket API and its VideoRoom plugin, as much of them as
 * our gateway and participants use (decision 044, issue 30 point 9b). The real Janus announces a
 * publisher to the room only once its media is up, which needs a browser; this one announces it
 * at once, so stand-in browsers (MeetingTestClient) can take part in subscriptions and the tests
 * can choose when each answer comes. It keeps what the real one keeps and the tests look at:
 *
 * - each subscription's streams, the offer waiting for its answer, and the streams that flow now
 *   (those of the last offer answered: an update waiting for its answer leaves them flowing, a
 *   `pause`, `hangup`, `leave` or `detach` stops them);
 * - every request, per handle, in order;
 * - a publisher that leaves takes its streams out of every subscription (autoupdate): a new offer
 *   at once, or, while one waits for its answer, one more once it is answered, as Janus does.
 *
 * An answer must carry as many m-lines as the offer it answers (Janus refuses others): an
 * answer to an earlier offer fails `start`.
 */
import { randomInt } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { toBuffer } from '../../../realtime/room-socket.ts';

type Json = Record<string, unknown>;
type Sdp = { type: string; sdp: string };
type Reply = (data: Json, jsep?: Sdp) => void;
type Refuse = (code: number, error: string) => void;

export type StandInStream = {
  type: 'audio' | 'video';
  mid: string;
  feed_id: string;
  feed_mid: string;
  active: boolean;
};

type Publisher = {
  id: string;
  room: string;
  streams: { type: 'audio' | 'video'; mid: string; description?: string }[];
};

export type StandInSubscription = {
  handle: number;
  room: string;
  /** The streams of the latest offer, removed ones inactive. */
  streams: StandInStream[];
  /** The offer waiting for its answer, if one is. */
  pendingOffer: string | undefined;
  /** What flows to the browser now: the active streams of the last offer it answered. */
  flowing: StandInStream[];
  /** Offers sent on this subscription, in order (the first is the join's). */
  offers: string[];
  /** A publisher left while an offer waited: one more offer once it is answered. */
  isUpdateHeld: boolean;
};

type Handle = {
  id: number;
  socket: WebSocket;
  session: number;
  publisher?: Publisher;
  subscription?: StandInSubscription;
};

export type StandInRequest = { at: number; handle: number; request: string; body: Json };

/** The handle an offer of the stand-in came from: written in its `o=` line. */
export const offerHandle = (sdp: string) => Number(/^o=- (\d+) /m.exec(sdp)?.[1]);

const countMLines = (sdp: string) => sdp.split(/\r\n/).filter((line) => line.startsWith('m=')).length;

export class StandInJanus {
  readonly requests: StandInRequest[] = [];
  readonly #server: WebSocketServer;
  readonly #handles = new Map<number, Handle>();
  readonly #rooms = new Set<string>();

  private constructor(server: WebSocketServer) {
    this.#server = server;
    server.on('connection', (socket) => {
      socket.on('message', (data) => this.#receive(socket, JSON.parse(toBuffer(data).toString('utf8')) as Json));
    });
  }

  static async start(): Promise<StandInJanus> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'janus-protocol' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new StandInJanus(server);
  }

  get url(): string {
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('not listening on a port');
    return `ws://127.0.0.1:${address.port}`;
  }

  /** The subscription an offer (as the browser received it) belongs to. */
  subscriptionOf(offer: string): StandInSubscription {
    const subscription = this.#handles.get(offerHandle(offer))?.subscription;
    if (!subscription) throw new Error('no subscription made that offer');
    return subscription;
  }

  /** The requests made on the handle that sent this offer. */
  requestsOf(offer: string): StandInRequest[] {
    const handle = offerHandle(offer);
    return this.requests.filter((request) => request.handle === handle);
  }

  async close(): Promise<void> {
    for (const client of this.#server.clients) client.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #receive(socket: WebSocket, message: Json) {
    const { janus, transaction } = message as { janus: string; transaction?: string };
    const session = message.session_id as number | undefined;
    const reply = (payload: Json) => socket.send(JSON.stringify({ transaction, ...payload }));
    switch (janus) {
      case 'create':
        return reply({ janus: 'success', data: { id: randomInt(1, 2 ** 40) } });
      case 'keepalive':
        return reply({ janus: 'ack', session_id: session });
      case 'attach': {
        const id = randomInt(1, 2 ** 40);
        this.#handles.set(id, { id, socket, session: session ?? 0 });
        return reply({ janus: 'success', session_id: session, data: { id } });
      }
    }
    const handle = this.#handles.get(message.handle_id as number);
    if (!handle) return reply({ janus: 'error', session_id: session, error: { code: 459, reason: 'No such handle' } });
    const record = (request: string, body: Json = {}) =>
      this.requests.push({ at: Date.now(), handle: handle.id, request, body });
    switch (janus) {
      case 'trickle':
        record('trickle');
        return reply({ janus: 'ack', session_id: session });
      case 'hangup':
        record('hangup');
        if (handle.subscription) handle.subscription.flowing = [];
        return reply({ janus: 'success', session_id: session, sender: handle.id });
      case 'detach':
        record('detach');
        this.#leave(handle);
        this.#handles.delete(handle.id);
        return reply({ janus: 'success', session_id: session, sender: handle.id });
      case 'message': {
        const body = message.body as Json;
        record(String(body.request), body);
        return this.#videoRoom(handle, body, message.jsep as Sdp | undefined, reply);
      }
    }
  }

  #videoRoom(handle: Handle, body: Json, jsep: Sdp | undefined, reply: (payload: Json) => void) {
    const session = handle.session;
    const success = (data: Json) =>
      reply({
        janus: 'success',
        session_id: session,
        sender: handle.id,
        plugindata: { plugin: 'janus.plugin.videoroom', data },
      });
    const event: Reply = (data, offer) => {
      reply({ janus: 'ack', session_id: session });
      reply({
        janus: 'event',
        session_id: session,
        sender: handle.id,
        plugindata: { plugin: 'janus.plugin.videoroom', data },
        ...(offer ? { jsep: offer } : {}),
      });
    };
    const refuse = (code: number, error: string) => event({ videoroom: 'event', error_code: code, error });
    const room =
      typeof body.room === 'string' ? body.room : (handle.publisher?.room ?? handle.subscription?.room ?? '');
    switch (body.request) {
      case 'create':
        if (this.#rooms.has(room)) return success({ videoroom: 'event', error_code: 427, error: 'Room exists' });
        this.#rooms.add(room);
        return success({ videoroom: 'created', room });
      case 'moderate':
        return success({ videoroom: 'success' });
      case 'listparticipants':
        return success({
          videoroom: 'participants',
          room,
          participants: this.#publishers(room).map(({ id }) => ({ id, display: id, publisher: true })),
        });
      case 'joinandconfigure':
      case 'join':
        if (body.ptype === 'publisher') return this.#joinPublisher(handle, body, jsep, event);
        return this.#joinSubscriber(handle, room, body.streams as { feed: string; mid: string }[], event, refuse);
      case 'configure':
        return event(
          { videoroom: 'event', room, configured: 'ok' },
          jsep ? { type: 'answer', sdp: publishedAnswer(jsep.sdp) } : undefined,
        );
      case 'update':
        return this.#update(handle, body, event, refuse);
      case 'start':
        return this.#start(handle, jsep, event, refuse);
      case 'pause':
        if (handle.subscription) handle.subscription.flowing = [];
        return event({ videoroom: 'event', room, paused: 'ok' });
      case 'leave':
        this.#leave(handle);
        return event({ videoroom: 'event', room, leaving: 'ok' });
      default:
        return refuse(499, `the stand-in does not know ${String(body.request)}`);
    }
  }

  #joinPublisher(handle: Handle, body: Json, jsep: Sdp | undefined, event: Reply) {
    const room = String(body.room);
    const id = String(body.id);
    const descriptions = (body.descriptions as { mid: string; description: string }[] | undefined) ?? [];
    const mids = jsep ? mLines(jsep.sdp) : [];
    const publisher: Publisher = {
      id,
      room,
      streams: mids.map(({ media, mid }) => ({
        type: media === 'audio' ? 'audio' : 'video',
        mid,
        description: descriptions.find((entry) => entry.mid === mid)?.description,
      })),
    };
    const others = this.#publishers(room);
    handle.publisher = publisher;
    event(
      { videoroom: 'joined', room, id, publishers: others.map(announce) },
      jsep ? { type: 'answer', sdp: publishedAnswer(jsep.sdp) } : undefined,
    );
    // The real Janus waits for the publisher's media to be up; the stand-in says so at once.
    for (const other of this.#handles.values()) {
      if (other !== handle && other.publisher?.room === room) {
        this.#notify(other, { videoroom: 'event', room, publishers: [announce(publisher)] });
      }
    }
  }

  #joinSubscriber(handle: Handle, room: string, wanted: { feed: string; mid: string }[], event: Reply, refuse: Refuse) {
    const streams = this.#streamsFor(room, wanted, 0);
    if (!streams) return refuse(428, 'No such feed');
    const subscription: StandInSubscription = {
      handle: handle.id,
      room,
      streams,
      pendingOffer: undefined,
      flowing: [],
      offers: [],
      isUpdateHeld: false,
    };
    handle.subscription = subscription;
    event({ videoroom: 'attached', room, streams }, { type: 'offer', sdp: this.#offer(subscription) });
  }

  #update(handle: Handle, body: Json, event: Reply, refuse: Refuse) {
    const subscription = handle.subscription;
    if (!subscription) return refuse(499, 'not a subscriber');
    const unsubscribe = (body.unsubscribe as { feed: string; mid: string }[] | undefined) ?? [];
    const added = this.#streamsFor(
      subscription.room,
      (body.subscribe as { feed: string; mid: string }[] | undefined) ?? [],
      subscription.streams.length,
    );
    if (!added) return refuse(428, 'No such feed');
    for (const stream of subscription.streams) {
      if (unsubscribe.some(({ feed, mid }) => feed === stream.feed_id && mid === stream.feed_mid))
        stream.active = false;
    }
    subscription.streams.push(...added);
    event(
      { videoroom: 'updated', room: subscription.room, streams: subscription.streams },
      {
        type: 'offer',
        sdp: this.#offer(subscription),
      },
    );
  }

  #start(handle: Handle, jsep: Sdp | undefined, event: Reply, refuse: Refuse) {
    const subscription = handle.subscription;
    const offer = subscription?.pendingOffer;
    if (!subscription || !offer || !jsep) return refuse(499, 'no offer waits for an answer');
    if (countMLines(jsep.sdp) !== countMLines(offer)) return refuse(465, 'the answer does not match the offer');
    subscription.pendingOffer = undefined;
    subscription.flowing = subscription.streams.filter((stream) => stream.active);
    event({ videoroom: 'event', room: subscription.room, started: 'ok' });
    if (subscription.isUpdateHeld) {
      subscription.isUpdateHeld = false;
      this.#autoupdate(handle);
    }
  }

  /** A publisher leaving: the others hear of it, and their subscriptions drop its streams. */
  #leave(handle: Handle) {
    const publisher = handle.publisher;
    handle.subscription = undefined;
    if (!publisher) return;
    handle.publisher = undefined;
    for (const other of this.#handles.values()) {
      if (other.publisher?.room === publisher.room) {
        this.#notify(other, { videoroom: 'event', room: publisher.room, unpublished: publisher.id });
      }
      const subscription = other.subscription;
      const gone = subscription?.streams.filter((stream) => stream.active && stream.feed_id === publisher.id) ?? [];
      if (!subscription || gone.length === 0) continue;
      for (const stream of gone) stream.active = false;
      subscription.flowing = subscription.flowing.filter((stream) => stream.feed_id !== publisher.id);
      if (subscription.pendingOffer) subscription.isUpdateHeld = true;
      else this.#autoupdate(other);
    }
  }

  #autoupdate(handle: Handle) {
    const subscription = handle.subscription;
    if (!subscription) return;
    this.#notify(
      handle,
      { videoroom: 'updated', room: subscription.room, streams: subscription.streams },
      { type: 'offer', sdp: this.#offer(subscription) },
    );
  }

  #notify(handle: Handle, data: Json, jsep?: Sdp) {
    handle.socket.send(
      JSON.stringify({
        janus: 'event',
        session_id: handle.session,
        sender: handle.id,
        plugindata: { plugin: 'janus.plugin.videoroom', data },
        ...(jsep ? { jsep } : {}),
      }),
    );
  }

  #publishers(room: string): Publisher[] {
    return [...this.#handles.values()].flatMap((handle) => (handle.publisher?.room === room ? [handle.publisher] : []));
  }

  /** The subscription's new streams for `wanted`, numbered from `first`; undefined if a feed is gone. */
  #streamsFor(room: string, wanted: { feed: string; mid: string }[], first: number): StandInStream[] | undefined {
    const publishers = this.#publishers(room);
    const streams: StandInStream[] = [];
    for (const [index, { feed, mid }] of wanted.entries()) {
      const stream = publishers.find((publisher) => publisher.id === String(feed))?.streams.find((s) => s.mid === mid);
      if (!stream) return undefined;
      streams.push({
        type: stream.type,
        mid: String(first + index),
        feed_id: String(feed),
        feed_mid: mid,
        active: true,
      });
    }
    return streams;
  }

  /** The subscription's offer now: one m-line per stream, a removed one with port 0. */
  #offer(subscription: StandInSubscription): string {
    const sdp = [
      'v=0',
      `o=- ${subscription.handle} ${subscription.offers.length + 1} IN IP4 127.0.0.1`,
      's=stand-in Janus',
      't=0 0',
      ...subscription.streams.flatMap((stream) => [
        `m=${stream.type} ${stream.active ? 9 : 0} UDP/TLS/RTP/SAVPF ${stream.type === 'audio' ? 111 : 96}`,
        'c=IN IP4 0.0.0.0',
        `a=mid:${stream.mid}`,
        stream.active ? 'a=sendonly' : 'a=inactive',
        `a=rtpmap:${stream.type === 'audio' ? '111 opus/48000/2' : '96 VP8/90000'}`,
      ]),
      '',
    ].join('\r\n');
    subscription.offers.push(sdp);
    subscription.pendingOffer = sdp;
    return sdp;
  }
}

const announce = (publisher: Publisher) => ({ id: publisher.id, display: publisher.id, streams: publisher.streams });

function mLines(sdp: string): { media: string; mid: string }[] {
  return sdp.split(/\r\n(?=m=)/).flatMap((section) => {
    const media = /^m=(\w+)/.exec(section)?.[1];
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1];
    return media && mid !== undefined ? [{ media, mid }] : [];
  });
}

/** Janus's answer to a publishing offer: the same m-lines, received. */
function publishedAnswer(offer: string): string {
  return offer.replace(/a=sendonly/g, 'a=recvonly').replace(/a=setup:actpass/g, 'a=setup:passive');
}
