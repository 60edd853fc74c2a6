import { i18n } from '@lingui/core';
import * as Y from 'yjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// Node's socket, as the live game's actors use: jsdom's events are not the ones Node's WebSocket dispatches.
import { WebSocket as NodeWebSocket } from 'ws';
import {
  BOARD_ROOT,
  CLASS_BOARD_LIMITS,
  CLASS_BOARD_SOCKET_PATH,
  type BoardPen,
  type BoardTicket,
} from '#shared/class-boards';
import { getClassBoardDocument, issueClassBoardToken, setClassBoardPen } from '#shared/contract/class-boards';
import { roomSocketQuery } from '#shared/rooms';
import { urlOf } from '../../lib/api.ts';
import {
  classCodeOf,
  signUpStudent,
  signUpTeacher,
  studentProfile,
  teacherClasses,
  teacherProfile,
  type Actor,
} from '../../testing/server-actors.ts';
import { patience } from '../../../server/testing/patience.ts';
import { callJson } from '../../../server/testing/server-process.ts';
import type { BoardStrokeInput } from './board-model.ts';
import { memoryBoardStore, savedBoardKey, type BoardLocalStore } from './board-offline.ts';
import { ClassBoardSession } from './board-session.ts';

/**
 * The page's board session against the component tests' real server (decision 069) over real
 * sockets: its socket route, its checks, its database. Each session has its own network the test
 * cuts and restores, and its own browser copy (a store in memory), so a reload is a new session
 * on the same store. What the server stored is what a page opened afterwards is given.
 */

const sessions: ClassBoardSession[] = [];

beforeAll(() => {
  // ApiError words its code in the active locale: English, the code's own.
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(() => {
  for (const session of sessions.splice(0)) session.close();
});

type Person = Actor & { id: string; name: string };

async function ticketOf(person: Person, classId: string) {
  const url = urlOf(issueClassBoardToken, { params: { classId } });
  const answer = await callJson(location.origin, 'POST', url, { token: person.token, body: {} });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as BoardTicket;
}

/**
 * A teacher's class with `students` students in it (registered with its join code), and one more
 * who only looks: what the server stored (one seat per person: nobody else's session is replaced).
 */
async function aClass(students = 2) {
  const signedUp = await signUpTeacher();
  const profile = await teacherProfile(signedUp);
  const teacher: Person = { token: signedUp.token, id: profile._id, name: profile.name };
  const className = `B${Math.random().toString(36).slice(2, 9)}`;
  await classCodeOf(className, teacher);
  const classId = (await teacherClasses(teacher)).find((taught) => taught.name === className)!._id;
  const pupils: Person[] = [];
  for (let index = 0; index <= students; index++) {
    const { token } = await signUpStudent({ class: className, teacher });
    const own = await studentProfile({ token });
    pupils.push({ token, id: own._id, name: own.name });
  }
  const observer = pupils.pop()!;
  return { teacher, classId, pupils, observer };
}

async function setPen(teacher: Person, classId: string, mode: BoardPen['mode'], studentIds: string[] = []) {
  const url = urlOf(setClassBoardPen, { params: { classId } });
  const answer = await callJson(location.origin, 'PUT', url, { token: teacher.token, body: { mode, studentIds } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** A page's link to the server: cut (sockets dropped, tokens unreachable) and restored by the test. */
class TestLink {
  isOnline = true;
  /** Tokens wait for this while set (a slow network on a reload). */
  gate: Promise<void> | undefined;
  private sockets: NodeWebSocket[] = [];
  private onChange: ((isOnline: boolean) => void) | undefined;
  readonly network = {
    isOnline: () => this.isOnline,
    watch: (onChange: (isOnline: boolean) => void) => {
      this.onChange = onChange;
      return () => (this.onChange = undefined);
    },
  };

  /** The stored board's downloads this page made (a first open's), and their sizes. */
  readonly downloads: number[] = [];
  /** Makes the download fail (the page then gets the board from the socket). */
  refusesDownload = false;

  /** The size of each document update this page sent (JSON text). */
  readonly updatesSent: number[] = [];
  /** The y-protocols type of each sync message this page sent (its first byte: 0 step 1, 1 step 2, 2 update). */
  readonly syncTypesSent: number[] = [];

  createSocket = (url: string) => {
    const socket = new NodeWebSocket(url);
    this.sockets.push(socket);
    const send = socket.send.bind(socket);
    socket.send = ((text: string) => {
      if (text.includes('"ref"')) this.updatesSent.push(text.length);
      const message = JSON.parse(text) as { type: string; data?: string };
      if (message.type === 'sync' && message.data) this.syncTypesSent.push(Buffer.from(message.data, 'base64')[0]!);
      send(text);
    }) as typeof socket.send;
    return socket as unknown as WebSocket;
  };

  cut() {
    this.isOnline = false;
    for (const socket of this.sockets.splice(0)) socket.terminate();
    this.onChange?.(false);
  }

  restore() {
    this.isOnline = true;
    this.onChange?.(true);
  }
}

/** The browser's localStorage, as far as the session uses it. */
function testSettings() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

function openSession(
  person: Person,
  classId: string,
  store: BoardLocalStore = memoryBoardStore(),
  settings = testSettings(),
  isDownloadStarted = () => false,
) {
  const link = new TestLink();
  const session = new ClassBoardSession({
    classId,
    me: { id: person.id, name: person.name },
    ticket: async (id) => {
      await link.gate;
      if (!link.isOnline) throw new TypeError('Failed to fetch');
      return ticketOf(person, id);
    },
    download: async (id, signal) => {
      if (!link.isOnline || link.refusesDownload) throw new TypeError('Failed to fetch');
      const response = await fetch(`${location.origin}${urlOf(getClassBoardDocument, { params: { classId: id } })}`, {
        headers: { authorization: `Bearer ${person.token}` },
        signal,
      });
      if (!response.ok) throw new Error(`download: ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      link.downloads.push(bytes.byteLength);
      return bytes;
    },
    socketUrl: (token) => `ws://${location.host}${CLASS_BOARD_SOCKET_PATH}${roomSocketQuery(token)}`,
    createSocket: link.createSocket,
    network: link.network,
    delayMs: () => 20,
    store,
    settings,
    isDownloadStarted,
  });
  sessions.push(session);
  return { session, link, store, settings };
}

/** A session started and synced with the server. */
async function synced(
  person: Person,
  classId: string,
  store?: BoardLocalStore,
  settings?: ReturnType<typeof testSettings>,
) {
  const opened = openSession(person, classId, store, settings);
  await opened.session.start();
  await until(opened.session, (state) => state.status === 'synced');
  return opened;
}

async function until(
  session: ClassBoardSession,
  check: (state: ReturnType<ClassBoardSession['getSnapshot']>) => boolean,
) {
  // Sending a long offline lesson takes a few round trips to the database: more than vi.waitFor's second under load.
  await vi.waitFor(
    () => {
      if (!check(session.getSnapshot())) throw new Error(`not yet: ${JSON.stringify(session.getSnapshot())}`);
    },
    { timeout: patience(10_000) },
  );
}

const ids = (session: ClassBoardSession, pageId: string) => session.strokesOf(pageId).map((stroke) => stroke.id);

/** A stroke of `points` points, whole board units. */
const line = (points = 20, offset = 0): BoardStrokeInput => ({
  colour: '#1d4ed8',
  width: 3,
  points: Array.from({ length: points * 2 }, (_, index) => (index * 37 + offset) % 5000),
});

/** The ids of a page's strokes as the server gives them to a page opened now, with no copy of its own. */
async function storedIds(observer: Person, classId: string, pageId: string) {
  const { session } = await synced(observer, classId);
  const stored = ids(session, pageId);
  session.close();
  return stored;
}

/** The teacher's session with one page, stored. */
async function teacherBoard(teacher: Person, classId: string) {
  const opened = await synced(teacher, classId);
  const pageId = opened.session.addPage('Fractions')!;
  expect(pageId).toBeTruthy();
  await until(opened.session, (state) => state.savedAll);
  return { ...opened, pageId };
}

/** A teacher's board with a stroke saved, then one drawn offline: in the browser's copy only, the page closed. */
async function aCopyWithAnUnsentStroke() {
  const { teacher, classId, observer } = await aClass(0);
  const first = await teacherBoard(teacher, classId);
  const saved = first.session.addStroke(first.pageId, line())!;
  await until(first.session, (state) => state.savedAll);
  first.link.cut();
  await until(first.session, (state) => state.status === 'offline');
  const unsent = first.session.addStroke(first.pageId, line(12))!;
  await first.session.flushToBrowser();
  first.session.close();
  return { teacher, classId, observer, first, saved, unsent };
}

/**
 * A first open (the page started the download: its flag said no copy here) over a copy that is
 * there, read slowly: started, its download taken; `readCopy` lets the copy's read finish.
 */
async function firstOpenReadingSlowly(person: Person, classId: string, copy: BoardLocalStore) {
  let readCopy!: () => void;
  const copyRead = new Promise<void>((resolve) => (readCopy = resolve));
  const store: BoardLocalStore = { ...copy, load: async (key) => (await copyRead, copy.load(key)) };
  const opened = openSession(person, classId, store, testSettings(), () => true);
  const starting = opened.session.start();
  await vi.waitFor(() => expect(opened.link.downloads).toHaveLength(1));
  return { opened, readCopy, starting };
}

describe('the class board session', () => {
  it('answers the server’s sync step 1 with a step 2: its windows of a late joiner’s pieces wait for it', async () => {
    const { teacher, classId } = await aClass(0);
    const { session, link } = await synced(teacher, classId);
    // Its own step 1 (0, once the board's download is in) and the answer to the server's (1), in
    // either order, which the server acknowledges.
    await vi.waitFor(() => expect([...link.syncTypesSent].sort()).toEqual([0, 1]));
    await until(session, (state) => state.savedAll && state.isLoaded);
  });

  it('brings two people to the same board: strokes both ways, stored, every change saved', async () => {
    const { teacher, classId, pupils, observer } = await aClass();
    await setPen(teacher, classId, 'everyone');
    const board = await teacherBoard(teacher, classId);
    const pupil = await synced(pupils[0]!, classId);
    await until(pupil.session, (state) => state.pages.some((page) => page.name === 'Fractions'));
    expect(pupil.session.getSnapshot()).toMatchObject({ isTeacher: false, canDraw: true, pen: { mode: 'everyone' } });

    const byTeacher = board.session.addStroke(board.pageId, line())!;
    const byPupil = pupil.session.addStroke(board.pageId, line(10, 7))!;
    await until(pupil.session, () => ids(pupil.session, board.pageId).includes(byTeacher));
    await until(board.session, () => ids(board.session, board.pageId).includes(byPupil));
    await until(board.session, (state) => state.savedAll);
    await until(pupil.session, (state) => state.savedAll);
    expect(ids(pupil.session, board.pageId)).toEqual(ids(board.session, board.pageId));
    expect((await storedIds(observer, classId, board.pageId)).sort()).toEqual([byPupil, byTeacher].sort());
    expect(pupil.session.strokesOf(board.pageId).find((stroke) => stroke.id === byPupil)?.author).toBe(pupils[0]!.id);

    // Pages are the teachers': a student's session does not even try.
    expect(pupil.session.addPage('Mine')).toBeNull();
    // The others: each sees the other, with the name the server gives.
    await until(board.session, (state) => state.peers.some((peer) => peer.userId === pupils[0]!.id));
    const seen = board.session.getSnapshot().peers.find((peer) => peer.userId === pupils[0]!.id);
    expect(seen).toMatchObject({ name: pupils[0]!.name, teacher: false });
  });

  it('undoes one person’s own changes only: the other’s strokes stay; a clear comes back, a teacher’s of anyone’s', async () => {
    const { teacher, classId, pupils, observer } = await aClass();
    await setPen(teacher, classId, 'everyone');
    const board = await teacherBoard(teacher, classId);
    const pupil = await synced(pupils[0]!, classId);
    await until(pupil.session, (state) => state.pages.length === 1);

    const teachers = board.session.addStroke(board.pageId, line())!;
    await until(pupil.session, () => ids(pupil.session, board.pageId).includes(teachers));
    const pupils1 = pupil.session.addStroke(board.pageId, line(5))!;
    const pupils2 = pupil.session.addStroke(board.pageId, line(6))!;
    await until(board.session, () => ids(board.session, board.pageId).length === 3);

    pupil.session.undo();
    await until(board.session, () => !ids(board.session, board.pageId).includes(pupils2));
    expect(ids(board.session, board.pageId)).toEqual([teachers, pupils1]);
    pupil.session.redo();
    await until(board.session, () => ids(board.session, board.pageId).includes(pupils2));

    // The teacher's undo takes back the teacher's stroke (their last change), not the pupil's later ones.
    board.session.undo();
    await until(pupil.session, () => !ids(pupil.session, board.pageId).includes(teachers));
    expect(ids(pupil.session, board.pageId)).toEqual([pupils1, pupils2]);
    await until(pupil.session, (state) => state.savedAll);
    await until(board.session, (state) => state.savedAll);
    expect(await storedIds(observer, classId, board.pageId)).toEqual([pupils1, pupils2]);

    // A clear of the pupil's own strokes is undone; a pupil's with others' strokes in it cannot be
    // (the server takes from a student only strokes naming them), so the session does not offer it.
    const second = board.session.addPage('Decimals')!;
    await until(pupil.session, (state) => state.pages.length === 2);
    const mine = pupil.session.addStroke(second, line(8))!;
    pupil.session.clearPage(second);
    await until(board.session, (state) => state.pages.length === 2 && ids(board.session, second).length === 0);
    expect(pupil.session.getSnapshot().canUndo).toBe(true);
    pupil.session.undo();
    await until(board.session, () => ids(board.session, second).length === 1);
    expect(ids(board.session, second)).toEqual([mine]);
    await until(pupil.session, (state) => state.savedAll);
    expect(await storedIds(observer, classId, second)).toEqual([mine]);

    pupil.session.clearPage(board.pageId);
    await until(board.session, () => ids(board.session, board.pageId).length === 0);
    // The pupil's strokes were theirs: that clear comes back too.
    expect(pupil.session.getSnapshot().canUndo).toBe(true);

    // A teacher's clear of a page with the pupil's stroke is undone (the server takes anyone's
    // strokes from a teacher): the pupil sees their stroke again, authored by them.
    const teachers2 = board.session.addStroke(second, line(3))!;
    await until(pupil.session, () => ids(pupil.session, second).includes(teachers2));
    board.session.clearPage(second);
    await until(pupil.session, () => ids(pupil.session, second).length === 0);
    expect(board.session.getSnapshot().canUndo).toBe(true);
    board.session.undo();
    await until(pupil.session, () => ids(pupil.session, second).length === 2);
    expect(ids(pupil.session, second).sort()).toEqual([mine, teachers2].sort());
    expect(pupil.session.strokesOf(second).find((stroke) => stroke.id === mine)?.author).toBe(pupils[0]!.id);
    await until(board.session, (state) => state.savedAll);
    expect((await storedIds(observer, classId, second)).sort()).toEqual([mine, teachers2].sort());

    // A pupil's clear that took the teacher's stroke is not offered: the server would refuse its undo.
    pupil.session.clearPage(second);
    await until(board.session, () => ids(board.session, second).length === 0);
    expect(pupil.session.getSnapshot().canUndo).toBe(false);
  });

  it('gives a student without the pen no drawing; a stroke made before the pen was taken is refused, never stored', async () => {
    const { teacher, classId, pupils, observer } = await aClass();
    const board = await teacherBoard(teacher, classId);
    const pupil = await synced(pupils[0]!, classId);
    expect(pupil.session.getSnapshot()).toMatchObject({ canDraw: false, pen: { mode: 'teachers' } });
    expect(pupil.session.addStroke(board.pageId, line())).toBeNull();

    await setPen(teacher, classId, 'everyone');
    await until(pupil.session, (state) => state.canDraw);
    // Offline, the pupil draws; meanwhile the teacher takes the pen back.
    pupil.link.cut();
    await until(pupil.session, (state) => state.status === 'offline');
    const offline = pupil.session.addStroke(board.pageId, line())!;
    expect(offline).toBeTruthy();
    expect(pupil.session.getSnapshot()).toMatchObject({ savedAll: false, unsavedCount: 1 });
    await setPen(teacher, classId, 'teachers');

    pupil.link.restore();
    await until(pupil.session, (state) => state.lastRefusal?.code === 'NO_PEN');
    await until(pupil.session, (state) => state.status === 'synced' && state.savedAll);
    expect(pupil.session.getSnapshot().canDraw).toBe(false);
    // The pupil's copy is the server's again: the refused stroke is gone, the page is there.
    expect(ids(pupil.session, board.pageId)).toEqual([]);
    expect(pupil.session.getSnapshot().pages.map((page) => page.id)).toEqual([board.pageId]);
    expect(await storedIds(observer, classId, board.pageId)).toEqual([]);
    expect(ids(board.session, board.pageId)).toEqual([]);
  });

  it('merges drawing done offline on coming back: both see both, sent in messages under the limit', async () => {
    const { teacher, classId, pupils, observer } = await aClass();
    await setPen(teacher, classId, 'everyone');
    const board = await teacherBoard(teacher, classId);
    const pupil = await synced(pupils[0]!, classId);
    await until(pupil.session, (state) => state.pages.length === 1);

    pupil.link.cut();
    await until(pupil.session, (state) => state.status === 'offline');
    // A long lesson offline: more than one message's worth, and more strokes than the socket's burst.
    const drawnOffline = Array.from({ length: 120 }, (_, index) =>
      pupil.session.addStroke(board.pageId, line(200, index))!,
    );
    const updatesBytes = drawnOffline.length * 200 * 2 * 4;
    expect(updatesBytes).toBeGreaterThan(2 * CLASS_BOARD_LIMITS.messageMaxBytes);
    const byTeacher = board.session.addStroke(board.pageId, line(30))!;
    await until(board.session, (state) => state.savedAll);

    const sentBefore = pupil.link.updatesSent.length;
    pupil.link.restore();
    await until(pupil.session, (state) => state.status === 'synced' && state.savedAll);
    await until(board.session, () => ids(board.session, board.pageId).length === 121);
    // Several messages, each under the limit (one step 2 would have been closed as TOO_LARGE).
    const sent = pupil.link.updatesSent.slice(sentBefore);
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.length).toBeLessThan(drawnOffline.length / 4);
    expect(Math.max(...sent)).toBeLessThanOrEqual(CLASS_BOARD_LIMITS.messageMaxBytes);
    expect(ids(pupil.session, board.pageId)).toContain(byTeacher);
    expect(ids(pupil.session, board.pageId).sort()).toEqual(ids(board.session, board.pageId).sort());
    expect((await storedIds(observer, classId, board.pageId)).sort()).toEqual([...drawnOffline, byTeacher].sort());
    expect(pupil.session.getSnapshot().status).toBe('synced');
  });

  it('paints a reload from the browser’s copy before the socket syncs, and sends what was left unsent', async () => {
    const { teacher, classId, observer, first, saved, unsent } = await aCopyWithAnUnsentStroke();
    expect(await storedIds(observer, classId, first.pageId)).toEqual([saved]);

    // The reload: tokens are slow to come, the board is there already.
    const reload = openSession(teacher, classId, first.store);
    let letThrough!: () => void;
    reload.link.gate = new Promise((resolve) => (letThrough = resolve));
    await reload.session.start();
    expect(reload.session.getSnapshot()).toMatchObject({
      status: 'connecting',
      hasSynced: false,
      isLoaded: true,
      pages: [{ id: first.pageId, name: 'Fractions' }],
      savedAll: false,
      isTeacher: true,
      canDraw: true,
    });
    expect(ids(reload.session, first.pageId)).toEqual([saved, unsent]);

    letThrough();
    await until(reload.session, (state) => state.status === 'synced' && state.savedAll);
    expect(await storedIds(observer, classId, first.pageId)).toEqual([saved, unsent]);
  });

  it('opens a board first on this device from one download, then syncs a stroke drawn meanwhile by the socket', async () => {
    const { teacher, classId, observer } = await aClass(0);
    const board = await teacherBoard(teacher, classId);
    const drawn = Array.from({ length: 30 }, (_, index) => board.session.addStroke(board.pageId, line(100, index))!);
    await until(board.session, (state) => state.savedAll);

    // No copy in this browser: the board comes in one download, before any socket (tokens wait).
    const opened = openSession(observer, classId);
    let letThrough!: () => void;
    opened.link.gate = new Promise((resolve) => (letThrough = resolve));
    await opened.session.start();
    expect(opened.link.downloads).toHaveLength(1);
    expect(opened.link.downloads[0]).toBeGreaterThan(30 * 100 * 2);
    expect(opened.session.getSnapshot()).toMatchObject({
      status: 'connecting',
      hasSynced: false,
      isLoaded: true,
      pages: [{ id: board.pageId, name: 'Fractions' }],
      savedAll: true,
    });
    expect(ids(opened.session, board.pageId)).toEqual(drawn);

    // Drawn while the page was downloading: the socket's sync brings it (and only what is newer).
    const meanwhile = board.session.addStroke(board.pageId, line(7, 3))!;
    await until(board.session, (state) => state.savedAll);
    letThrough();
    await until(opened.session, (state) => state.status === 'synced');
    await until(opened.session, () => ids(opened.session, board.pageId).includes(meanwhile));
    expect(ids(opened.session, board.pageId)).toEqual([...drawn, meanwhile]);
    // The download was the server's: nothing of it is sent back or undoable.
    expect(opened.link.updatesSent.length).toBeLessThanOrEqual(2);
    expect(opened.session.getSnapshot()).toMatchObject({ savedAll: true, canUndo: false });

    // A download that fails: the socket brings the whole board, as before.
    const fallback = openSession(observer, classId);
    fallback.link.refusesDownload = true;
    await fallback.session.start();
    expect(fallback.session.getSnapshot().isLoaded).toBe(false);
    await until(fallback.session, (state) => state.status === 'synced');
    expect(ids(fallback.session, board.pageId)).toEqual([...drawn, meanwhile]);
  });

  it('takes a first open’s download while the copy is read, and keeps a copy the flag did not know of', async () => {
    const { teacher, classId, observer, first, saved, unsent } = await aCopyWithAnUnsentStroke();
    const more = (await synced(teacher, classId)).session;
    const later = more.addStroke(first.pageId, line(9, 5))!;
    await until(more, (state) => state.savedAll);
    more.close();

    // The page started the download (its flag said no copy here), but a copy is there: read slowly.
    const { opened, readCopy, starting } = await firstOpenReadingSlowly(teacher, classId, first.store);
    await until(opened.session, (state) => state.isLoaded);
    expect(ids(opened.session, first.pageId)).toEqual([saved, later]);
    readCopy();
    await starting;
    // The copy's unsent stroke joins the download's, and goes to the server.
    expect(ids(opened.session, first.pageId).sort()).toEqual([saved, later, unsent].sort());
    await until(opened.session, (state) => state.status === 'synced' && state.savedAll);
    expect((await storedIds(observer, classId, first.pageId)).sort()).toEqual([saved, later, unsent].sort());
  });

  it('leaves the copy as it was when the page closes before reading it', async () => {
    const { teacher, classId, first, saved, unsent } = await aCopyWithAnUnsentStroke();
    const { opened: gone, readCopy, starting } = await firstOpenReadingSlowly(teacher, classId, first.store);
    gone.session.close();
    readCopy();
    await starting;

    const reload = openSession(teacher, classId, first.store);
    await reload.session.start();
    expect(ids(reload.session, first.pageId)).toEqual([saved, unsent]);
    expect(reload.session.getSnapshot().savedAll).toBe(false);
  });

  it('keeps a stroke drawn offline in the browser at once, and all of the copy as the page is hidden', async () => {
    const { teacher, classId, observer } = await aClass(0);
    const first = await teacherBoard(teacher, classId);
    first.link.cut();
    await until(first.session, (state) => state.status === 'offline');
    const key = savedBoardKey(teacher.id, classId);
    const strokesIn = (state: Uint8Array) => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, state);
      const page = doc.getMap(BOARD_ROOT).get(first.pageId) as Y.Map<unknown> | undefined;
      return ((page?.get('strokes') as Y.Array<{ id: string }> | undefined)?.toArray() ?? []).map(
        (stroke) => stroke.id,
      );
    };

    // The unsent change is written at once; the whole copy (a large board's takes a while) later.
    const unsent = first.session.addStroke(first.pageId, line(9))!;
    const atOnce = (await first.store.load(key))!;
    expect(atOnce.unsaved).toHaveLength(1);
    expect(strokesIn(atOnce.state)).toEqual([]);
    // The page hidden (pagehide): the whole copy is written now, not in a moment.
    window.dispatchEvent(new Event('pagehide'));
    expect(strokesIn((await first.store.load(key))!.state)).toEqual([unsent]);

    // A second stroke, and the tab reloaded at once: no close, no wait for the copy's next write.
    const another = first.session.addStroke(first.pageId, line(4))!;
    const reload = openSession(teacher, classId, first.store);
    let letThrough!: () => void;
    reload.link.gate = new Promise((resolve) => (letThrough = resolve));
    await reload.session.start();
    expect(ids(reload.session, first.pageId)).toEqual([unsent, another]);
    expect(reload.session.getSnapshot()).toMatchObject({ isLoaded: true, savedAll: false, unsavedCount: 2 });
    first.session.close();

    letThrough();
    await until(reload.session, (state) => state.status === 'synced' && state.savedAll);
    expect(await storedIds(observer, classId, first.pageId)).toEqual([unsent, another]);
  });

  it('sends the undo of a large clear in pieces under the message limit, in order: nothing dropped', async () => {
    const { teacher, classId, observer } = await aClass(0);
    const board = await teacherBoard(teacher, classId);
    const drawn = Array.from({ length: 150 }, (_, index) => board.session.addStroke(board.pageId, line(120, index))!);
    await until(board.session, (state) => state.savedAll);
    board.session.clearPage(board.pageId);
    await until(board.session, (state) => state.savedAll);
    expect(await storedIds(observer, classId, board.pageId)).toEqual([]);

    const sentBefore = board.link.updatesSent.length;
    board.session.undo();
    await until(board.session, (state) => state.savedAll);
    // One change of ~150 KB: several messages, each under the limit; the copy kept, not dropped.
    const sent = board.link.updatesSent.slice(sentBefore);
    expect(sent.length).toBeGreaterThan(2);
    expect(Math.max(...sent)).toBeLessThanOrEqual(CLASS_BOARD_LIMITS.messageMaxBytes);
    expect(board.session.getSnapshot().lastRefusal).toBeNull();
    expect(ids(board.session, board.pageId)).toHaveLength(drawn.length);
    expect((await storedIds(observer, classId, board.pageId)).sort()).toEqual(ids(board.session, board.pageId).sort());
    expect(board.session.getSnapshot().canRedo).toBe(true);
  });

  it('keeps the cursor setting in the browser and sends no cursor while it is off', async () => {
    const { teacher, classId, pupils } = await aClass();
    const board = await teacherBoard(teacher, classId);
    const pupil = await synced(pupils[0]!, classId);
    pupil.session.setCursor({ pageId: board.pageId, x: 100, y: 200 });
    await until(board.session, (state) => state.peers.some((peer) => peer.cursor?.x === 100));

    pupil.session.setShowCursors(false);
    await until(board.session, (state) => state.peers.every((peer) => peer.cursor === undefined));
    pupil.session.setCursor({ pageId: board.pageId, x: 300, y: 300 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(board.session.getSnapshot().peers.map((peer) => peer.cursor)).toEqual([undefined]);
    expect(pupil.session.getSnapshot().showCursors).toBe(false);

    // The next page of this browser keeps it off.
    pupil.session.close();
    const again = openSession(pupils[0]!, classId, pupil.store, pupil.settings);
    expect(again.session.getSnapshot().showCursors).toBe(false);
  });
});
