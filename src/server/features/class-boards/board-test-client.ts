import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import {
  BOARD_ROOT,
  CLASS_BOARD_PROTOCOL_VERSION,
  CLASS_BOARD_SOCKET_PATH,
  type BoardServerMessage,
  type BoardStroke,
} from '#shared/class-boards';
import { patience } from '../../testing/patience.ts';
import { openRoomSocket, RoomTestClient } from '../../realtime/room-test-client.ts';
import { toBuffer } from '../../realtime/room-socket.ts';

/**
 * Tests only: a page on a class board's socket (decision 069), as a browser's y-protocols client
 * does it: its own Yjs document, synced with the server's (step 1 and 2 on joining, then each
 * local change sent as an update with a `ref`), and its awareness. What the server said stays in
 * the room test client's inbox.
 */

const REMOTE = Symbol('from the server');
const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

type Welcome = Extract<BoardServerMessage, { type: 'welcome' }>;

export class BoardTestPage {
  readonly doc = new Y.Doc();
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  private nextRef = 1;
  /** The ref of the last local change sent (draw, addPage, …): `saved(page.lastRef)` waits for it. */
  lastRef = 0;
  /** Send local changes as they are made (off: a page that keeps them, as offline). */
  isSending = true;

  private constructor(
    readonly client: RoomTestClient<BoardServerMessage>,
    readonly welcome: Welcome,
  ) {
    this.awareness.setLocalState(null);
    this.awareness.on('update', (changes: Record<'added' | 'updated' | 'removed', number[]>, origin: unknown) => {
      if (origin === REMOTE) return;
      const clients = [...changes.added, ...changes.updated, ...changes.removed];
      const update = awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients);
      this.client.send({ type: 'awareness', data: toBase64(update) });
    });
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE && this.isSending) this.lastRef = this.sendSync(syncProtocol.messageYjsUpdate, update);
    });
  }

  /** Connects, joins and answers the server's sync; resolves once welcomed. */
  static async open(baseUrl: string, token: string): Promise<BoardTestPage> {
    const client = new RoomTestClient<BoardServerMessage>(
      await openRoomSocket(baseUrl, CLASS_BOARD_SOCKET_PATH, token),
    );
    const pending: BoardTestPage[] = [];
    // Sync messages are answered as they come, even those before the welcome was read.
    const early: Uint8Array[] = [];
    client.socket.on('message', (raw) => {
      const message = JSON.parse(toBuffer(raw).toString('utf8')) as BoardServerMessage;
      if (message.type !== 'sync' && message.type !== 'awareness') return;
      const data = new Uint8Array(Buffer.from(message.data, 'base64'));
      const page = pending[0];
      if (message.type === 'awareness') {
        if (page) awarenessProtocol.applyAwarenessUpdate(page.awareness, data, REMOTE);
        return;
      }
      if (page) page.receiveSync(data);
      else early.push(data);
    });
    client.send({ type: 'join', protocolVersion: CLASS_BOARD_PROTOCOL_VERSION });
    const page = new BoardTestPage(client, await client.waitFor('welcome'));
    pending.push(page);
    for (const data of early.splice(0)) page.receiveSync(data);
    // Step 1: what this page has; the server answers with what it lacks.
    const encoder = encoding.createEncoder();
    syncProtocol.writeSyncStep1(encoder, page.doc);
    page.send(encoding.toUint8Array(encoder));
    return page;
  }

  private receiveSync(data: Uint8Array) {
    const encoder = encoding.createEncoder();
    syncProtocol.readSyncMessage(decoding.createDecoder(data), encoder, this.doc, REMOTE);
    // The answer to the server's step 1: what this page has that the server lacks.
    if (encoding.length(encoder) > 0 && this.isSending) this.send(encoding.toUint8Array(encoder));
  }

  /** One sync message as is (tests send forged ones this way); returns its ref. */
  send(data: Uint8Array): number {
    const ref = this.nextRef++;
    this.client.send({ type: 'sync', data: toBase64(data), ref });
    return ref;
  }

  /** An update (or step 2) wrapped as y-protocols does; returns its ref. */
  sendSync(type: number, update: Uint8Array): number {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, type);
    encoding.writeVarUint8Array(encoder, update);
    return this.send(encoding.toUint8Array(encoder));
  }

  get pages(): Y.Map<Y.Map<unknown>> {
    return this.doc.getMap(BOARD_ROOT);
  }

  /** Adds a page (a teacher's change). */
  addPage(id: string, name = 'Page', order = 1) {
    const page = new Y.Map<unknown>();
    page.set('name', name);
    page.set('order', order);
    page.set('strokes', new Y.Array<BoardStroke>());
    this.pages.set(id, page);
  }

  strokes(pageId: string): Y.Array<BoardStroke> {
    return this.pages.get(pageId)!.get('strokes') as Y.Array<BoardStroke>;
  }

  /** The ids of a page's strokes, in order (none while the page is not there). */
  strokeIds(pageId: string): string[] {
    return this.pages.has(pageId) ? this.strokes(pageId).map((stroke) => stroke.id) : [];
  }

  /** Draws one stroke on a page (one transaction, one update). */
  draw(pageId: string, stroke: BoardStroke) {
    this.strokes(pageId).push([stroke]);
  }

  /** The board as plain data. */
  json(): Record<string, unknown> {
    return this.pages.toJSON();
  }

  /** Waits until the page's board satisfies `check`. */
  async until(check: (page: BoardTestPage) => boolean, what = 'the board', timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + patience(timeoutMs);
    while (!check(this)) {
      if (Date.now() > deadline) throw new Error(`${what} not reached: ${JSON.stringify(this.json())}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits for the server's `saved` of `ref` (the last local change's by default). */
  saved(ref = this.lastRef) {
    return this.client.waitFor('saved', (message) => message.ref === ref);
  }

  close() {
    this.awareness.destroy();
    this.client.close();
  }
}

/** A stroke of `author`'s with `points` points. */
export function strokeBy(author: string, points = 50, id = `s${Math.random().toString(36).slice(2, 12)}`): BoardStroke {
  return {
    id,
    author,
    colour: '#1d4ed8',
    width: 3,
    points: Array.from({ length: points * 2 }, (_, index) => (index * 37) % 5000),
  };
}
