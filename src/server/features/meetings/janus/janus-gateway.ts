/**
 * Our server's line to Janus (decision 037): one WebSocket connection, one Janus session and
 * one VideoRoom handle, through janode, kept open and re-opened when Janus goes away.
 *
 * Janus is optional and may be down: nothing here throws at start or crashes the process when
 * it cannot be reached. `status` says whether it can be used now (for the room to tell people),
 * each change is logged once, and room operations made while it is unreachable fail with
 * JanusUnavailableError, which callers turn into a message rather than a 500.
 */
import { createHmac } from 'node:crypto';
import Janode, { type JanodeConnection, type JanodeSession } from 'janode';
import VideoRoomPlugin, { type VideoRoomHandle } from 'janode/plugins/videoroom';

// We log what matters ourselves; janode's own console lines would repeat each failed attempt.
Janode.Logger.setLevel('none');

export type JanusStatus = 'connecting' | 'connected' | 'unreachable' | 'closed';

/** What the gateway needs of a logger: pino (Fastify's) fits. */
export type JanusLogger = {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
};

export type JanusGatewayOptions = {
  /** This Janus's WebSocket transport (one entry of JANUS_URL). */
  url: string;
  /** Janus's api_secret (and the VideoRoom admin_key). */
  apiSecret: string;
  logger: JanusLogger;
  /** Waits between reconnection attempts, the last repeated: quick at first, then every 10 s. */
  retryDelaysMs?: number[];
  /** How long one request may wait for Janus before the link is taken as lost. */
  requestTimeoutMs?: number;
};

/** A meeting's VideoRoom: its id on Janus and the credentials only our server hands out. */
export type JanusRoomSpec = {
  room: string;
  description: string;
  /** Publishers at most: the meeting's room size. */
  maxPublishers: number;
  /** Needed to edit or destroy the room. */
  secret: string;
  /** Needed to join it: given to a participant only with a valid meeting token. */
  pin: string;
};

export class JanusUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('Janus is unreachable', { cause });
    this.name = 'JanusUnavailableError';
  }
}

const DEFAULT_RETRY_DELAYS_MS = [500, 1000, 2000, 5000, 10_000];

/** The Janus room id of a meeting room: fixed, so every app instance names the same room. */
export function janusRoomId(meetingRoomId: string): string {
  return `studyhall-${meetingRoomId}`;
}

/** Publishers Janus allows above the room size (see createRoom). */
const PUBLISHER_SLACK = 10;

/** Janus's answer when a room of that id exists already. */
const ROOM_EXISTS = 427;

export class JanusGateway {
  #status: JanusStatus = 'connecting';
  #connection: JanodeConnection | undefined;
  #session: JanodeSession | undefined;
  #handle: VideoRoomHandle | undefined;
  #unsubscribe: (() => void) | undefined;
  #attempt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #listeners = new Set<(status: JanusStatus) => void>();
  readonly #options: JanusGatewayOptions;
  readonly #retryDelaysMs: number[];

  constructor(options: JanusGatewayOptions) {
    this.#options = options;
    this.#retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }

  /** The Janus this gateway drives: its name in the room-to-server records too (room-servers.ts). */
  get url(): string {
    return this.#options.url;
  }

  get status(): JanusStatus {
    return this.#status;
  }

  /** Calls `listener` on every change of status; returns how to stop. */
  onStatus(listener: (status: JanusStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts connecting in the background; resolves after the first attempt, whatever its outcome. */
  async start(): Promise<JanusStatus> {
    await this.#connect();
    return this.#status;
  }

  /** Resolves once connected (or rejects after `timeoutMs`): for tests and start-up checks. */
  async whenStatus(wanted: JanusStatus, timeoutMs = 20_000): Promise<void> {
    if (this.#status === wanted) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`Janus did not become ${wanted} within ${timeoutMs} ms (it is ${this.#status})`));
      }, timeoutMs);
      const stop = this.onStatus((status) => {
        if (status !== wanted) return;
        clearTimeout(timer);
        stop();
        resolve();
      });
    });
  }

  /** Creates a meeting's room: private (not listed without the admin key), kept in memory only. */
  async createRoom(spec: JanusRoomSpec): Promise<void> {
    await this.#request((handle) =>
      handle.create({
        room: spec.room,
        description: spec.description,
        // Our roster holds the room's limit; Janus's has slack for handles still closing (a replaced
        // tab, an instance that died) so a full class's reconnecting student is not refused.
        max_publishers: spec.maxPublishers + PUBLISHER_SLACK,
        // Janus must not write rooms into its config folder: our database is the record.
        permanent: false,
        is_private: true,
        secret: spec.secret,
        pin: spec.pin,
        admin_key: this.#options.apiSecret,
        notify_joining: true,
        talking_events: true,
      }),
    );
  }

  /**
   * The Janus room of a meeting room, with credentials every app instance derives alike from
   * the API secret: no instance needs to tell another what they are.
   */
  roomSpecFor(meetingRoomId: string, maxPublishers: number): JanusRoomSpec {
    const derive = (purpose: string) =>
      createHmac('sha256', this.#options.apiSecret).update(`${purpose}:${meetingRoomId}`).digest('base64url');
    return {
      room: janusRoomId(meetingRoomId),
      description: `StudyHall meeting ${meetingRoomId}`,
      maxPublishers,
      secret: derive('secret'),
      pin: derive('pin'),
    };
  }

  /** Creates the room unless Janus holds it already (another instance, or an earlier joiner, made it). */
  async ensureRoom(spec: JanusRoomSpec): Promise<void> {
    try {
      await this.createRoom(spec);
    } catch (error) {
      if ((error as { _code?: unknown })._code !== ROOM_EXISTS) throw error;
    }
  }

  /** A VideoRoom handle of its own for one participant's publisher or subscriber connection. */
  async attachVideoRoom(): Promise<VideoRoomHandle> {
    const session = this.#session;
    if (this.#status !== 'connected' || !session) throw new JanusUnavailableError();
    try {
      return await withTimeout(session.attach(VideoRoomPlugin), this.#options.requestTimeoutMs ?? 10_000);
    } catch (error) {
      if (this.#status !== 'connected') throw new JanusUnavailableError(error);
      throw error;
    }
  }

  /** Destroys a room; `secret` must be the room's (Janus refuses otherwise: 433). */
  async destroyRoom(room: string, secret: string): Promise<void> {
    await this.#request((handle) => handle.destroy({ room, secret, permanent: false }));
  }

  /** The rooms Janus holds now, private ones included (with the admin key). */
  async listRooms(): Promise<string[]> {
    const { list } = await this.#request((handle) => handle.list({ admin_key: this.#options.apiSecret }));
    return list.map((entry) => String(entry.room));
  }

  /** The feeds (our participant ids) in a room on this Janus: which server holds whom, for tests and checks. */
  async participantsOf(room: string): Promise<string[]> {
    const { participants } = await this.#request((handle) => handle.listParticipants({ room }));
    return participants.map((participant) => String(participant.feed));
  }

  async close(): Promise<void> {
    this.#setStatus('closed');
    clearTimeout(this.#retryTimer);
    const connection = this.#connection;
    this.#forget();
    await connection?.close().catch(() => {});
  }

  /**
   * Runs one VideoRoom request. Janus's own refusals (a wrong secret, a room that exists) come
   * back as they are; a link that is down or does not answer is JanusUnavailableError.
   */
  async #request<T>(operation: (handle: VideoRoomHandle) => Promise<T>): Promise<T> {
    const handle = this.#handle;
    if (this.#status !== 'connected' || !handle) throw new JanusUnavailableError();
    const timeoutMs = this.#options.requestTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JanusUnavailableError(new Error(`no answer in ${timeoutMs} ms`))), timeoutMs);
    });
    try {
      return await Promise.race([operation(handle), timeout]);
    } catch (error) {
      if (error instanceof JanusUnavailableError) {
        this.#lost(error);
        throw error;
      }
      // A plugin error carries Janus's code ("433 Unauthorized…"); anything else is the link.
      if (typeof (error as { _code?: unknown })._code === 'number') throw error;
      if (this.#status !== 'connected') throw new JanusUnavailableError(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async #connect(): Promise<void> {
    if (this.#status === 'closed') return;
    let opened: JanodeConnection | undefined;
    try {
      const connection = await Janode.connect({
        address: { url: this.#options.url, apisecret: this.#options.apiSecret },
        retry_time_secs: 1,
        max_retries: 0,
      });
      opened = connection;
      // The socket opens within janode's 5 s handshake limit; a Janus that then does not answer
      // must not leave us "connecting" for ever.
      const session = await withTimeout(connection.create(), this.#options.requestTimeoutMs ?? 10_000);
      const handle = await withTimeout(session.attach(VideoRoomPlugin), this.#options.requestTimeoutMs ?? 10_000);
      // close() may have come while we waited (TypeScript narrows #status from the start).
      if ((this.#status as JanusStatus) === 'closed') {
        await connection.close().catch(() => {});
        return;
      }
      this.#connection = connection;
      this.#session = session;
      this.#handle = handle;
      // Any of these ends our use of the link: reconnect from the start.
      const lost = () => this.#lost(new Error('the connection to Janus closed'));
      connection.on(Janode.EVENT.CONNECTION_CLOSED, lost);
      connection.on(Janode.EVENT.CONNECTION_ERROR, lost);
      session.on(Janode.EVENT.SESSION_DESTROYED, lost);
      handle.on(Janode.EVENT.HANDLE_DETACHED, lost);
      // Only ours: janode's objects listen to each other too.
      this.#unsubscribe = () => {
        connection.off(Janode.EVENT.CONNECTION_CLOSED, lost);
        connection.off(Janode.EVENT.CONNECTION_ERROR, lost);
        session.off(Janode.EVENT.SESSION_DESTROYED, lost);
        handle.off(Janode.EVENT.HANDLE_DETACHED, lost);
      };
      this.#attempt = 0;
      this.#setStatus('connected');
    } catch (error) {
      // A wrong secret lands here too (Janus answers 403): the log line says which.
      await opened?.close().catch(() => {});
      this.#lost(error);
    }
  }

  /** The link is gone (or never came): say so once, drop it, try again after a while. */
  #lost(error: unknown): void {
    if (this.#status === 'closed' || this.#retryTimer) return;
    const connection = this.#connection;
    this.#forget();
    void connection?.close().catch(() => {});
    const delay = this.#retryDelaysMs[Math.min(this.#attempt, this.#retryDelaysMs.length - 1)] ?? 10_000;
    this.#attempt += 1;
    if (this.#status !== 'unreachable') {
      this.#options.logger.warn(
        { janusUrl: this.#options.url, reason: error instanceof Error ? error.message : String(error) },
        'janus unreachable: its meetings stop until it is back (new rooms go to another Janus, if any); retrying',
      );
    }
    this.#setStatus('unreachable');
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#connect();
    }, delay);
    this.#retryTimer.unref();
  }

  #forget(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#connection = undefined;
    this.#session = undefined;
    this.#handle = undefined;
  }

  #setStatus(status: JanusStatus): void {
    if (status === this.#status) return;
    const was = this.#status;
    this.#status = status;
    if (status === 'connected') {
      this.#options.logger.info({ janusUrl: this.#options.url, was }, 'janus connected');
    }
    for (const listener of this.#listeners) listener(status);
  }
}

/** `promise`, or a rejection once Janus has not answered in `timeoutMs`. */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Janus did not answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
