import { describe, expect, it } from 'vitest';
import type { MediaState, Participant, ServerMessage } from '#shared/meetings';
import { applyRoomEvent, cameraBitrateFor, CHAT_HISTORY_LIMIT, EMPTY_ROOM, type RoomState } from './room-state.ts';

const ALL_OFF: MediaState = { mic: false, camera: false, screen: false };
const ALL_ON: MediaState = { mic: true, camera: true, screen: false };

const participant = (id: string, name: string, media: MediaState = ALL_ON): Participant => ({
  id,
  name,
  role: 'student',
  media,
  host: false,
  hand: null,
});

const ada = participant('p-ada-0001', 'Ada Lovelace');
const grace = participant('p-grace-002', 'Grace Hopper', ALL_OFF);
const alan = participant('p-alan-0003', 'Alan Turing');
const me = { ...participant('p-me-00004', 'Me Myself'), role: 'teacher' as const };

const welcome = (participants: Participant[]): Extract<ServerMessage, { type: 'welcome' }> => ({
  type: 'welcome',
  protocolVersion: 2,
  roomId: 'abcd-efgh',
  you: me,
  participants,
  iceServers: [],
  roomSize: 8,
  locked: false,
  topology: 'mesh',
});

const chat = (from: string, text: string, sentAt = '2025-01-15T12:00:00.000Z') =>
  ({ type: 'chat', from, name: `name of ${from}`, text, sentAt }) as const;

const closed = { youId: me.id, isChatOpen: false };
const open = { youId: me.id, isChatOpen: true };

const roomWith = (participants: Participant[]): RoomState => ({ ...EMPTY_ROOM, participants });

describe('applyRoomEvent: welcome', () => {
  it('replaces the participants with the server’s list', () => {
    const room = applyRoomEvent(roomWith([ada, grace]), welcome([alan]), closed);
    expect(room.participants).toEqual([alan]);
  });

  it('keeps the chat, its unread count and its numbering (a rejoin does not wipe the chat)', () => {
    let room = applyRoomEvent(EMPTY_ROOM, welcome([ada]), closed);
    room = applyRoomEvent(room, chat(ada.id, 'hello'), closed);
    room = applyRoomEvent(room, chat(ada.id, 'anyone?'), closed);
    const rejoined = applyRoomEvent(room, welcome([grace]), closed);
    expect(rejoined).toEqual({ participants: [grace], chat: room.chat, unreadChat: 2, chatCount: 2 });
    const next = applyRoomEvent(rejoined, chat(grace.id, 'welcome back'), closed);
    expect(next.chat.map((line) => line.id)).toEqual(['chat-0', 'chat-1', 'chat-2']);
  });

  it('with nobody else there leaves an empty list', () => {
    expect(applyRoomEvent(roomWith([ada]), welcome([]), closed).participants).toEqual([]);
  });
});

describe('applyRoomEvent: participant-joined', () => {
  it('adds the newcomer after those already there', () => {
    const room = applyRoomEvent(roomWith([ada]), { type: 'participant-joined', participant: grace }, closed);
    expect(room.participants).toEqual([ada, grace]);
  });

  it('is idempotent: the same event twice leaves one entry', () => {
    const event = { type: 'participant-joined', participant: grace } as const;
    const once = applyRoomEvent(roomWith([ada]), event, closed);
    const twice = applyRoomEvent(once, event, closed);
    expect(twice.participants).toEqual([ada, grace]);
  });

  it('replaces an entry with the same id by the newer one', () => {
    const renamed = { ...grace, name: 'Rear Admiral Hopper', media: ALL_ON };
    const room = applyRoomEvent(
      roomWith([ada, grace, alan]),
      { type: 'participant-joined', participant: renamed },
      closed,
    );
    expect(room.participants).toHaveLength(3);
    expect(room.participants.filter((p) => p.id === grace.id)).toEqual([renamed]);
    expect(room.participants).toEqual(expect.arrayContaining([ada, alan, renamed]));
  });
});

describe('applyRoomEvent: participant-left', () => {
  it('removes that participant only', () => {
    const room = applyRoomEvent(
      roomWith([ada, grace, alan]),
      { type: 'participant-left', participantId: grace.id, reason: 'left' },
      closed,
    );
    expect(room.participants).toEqual([ada, alan]);
  });

  it('is idempotent and ignores someone unknown', () => {
    const event = { type: 'participant-left', participantId: grace.id, reason: 'timeout' } as const;
    const once = applyRoomEvent(roomWith([ada, grace]), event, closed);
    expect(applyRoomEvent(once, event, closed).participants).toEqual([ada]);
    const unknown = { type: 'participant-left', participantId: 'p-nobody-99', reason: 'replaced' } as const;
    expect(applyRoomEvent(roomWith([ada]), unknown, closed).participants).toEqual([ada]);
  });
});

describe('applyRoomEvent: media-state', () => {
  it('changes only the sender’s media', () => {
    const state: MediaState = { mic: false, camera: true, screen: true };
    const before = roomWith([ada, grace, alan]);
    const room = applyRoomEvent(before, { type: 'media-state', from: grace.id, state }, closed);
    expect(room.participants).toEqual([ada, { ...grace, media: state }, alan]);
    expect(room.participants[0]).toBe(ada);
    expect(room.participants[2]).toBe(alan);
    expect(before.participants[1]!.media).toEqual(ALL_OFF);
  });

  it('ignores a sender who is not in the list', () => {
    const room = applyRoomEvent(roomWith([ada]), { type: 'media-state', from: 'p-nobody-99', state: ALL_OFF }, closed);
    expect(room.participants).toEqual([ada]);
  });
});

describe('applyRoomEvent: chat', () => {
  it('appends a line, marked as mine when I sent it', () => {
    let room = applyRoomEvent(EMPTY_ROOM, chat(ada.id, 'Hi all', '2025-01-15T12:00:01.000Z'), closed);
    room = applyRoomEvent(room, chat(me.id, 'Hi Ada', '2025-01-15T12:00:02.000Z'), closed);
    expect(room.chat).toEqual([
      {
        id: 'chat-0',
        from: ada.id,
        name: `name of ${ada.id}`,
        text: 'Hi all',
        sentAt: '2025-01-15T12:00:01.000Z',
        isMine: false,
      },
      {
        id: 'chat-1',
        from: me.id,
        name: `name of ${me.id}`,
        text: 'Hi Ada',
        sentAt: '2025-01-15T12:00:02.000Z',
        isMine: true,
      },
    ]);
    expect(room.chatCount).toBe(2);
  });

  it('counts as unread only others’ lines that arrive while the chat is closed', () => {
    let room = applyRoomEvent(EMPTY_ROOM, chat(ada.id, 'one'), closed);
    expect(room.unreadChat).toBe(1);
    room = applyRoomEvent(room, chat(grace.id, 'two'), closed);
    expect(room.unreadChat).toBe(2);
    room = applyRoomEvent(room, chat(me.id, 'mine'), closed);
    expect(room.unreadChat).toBe(2);
    room = applyRoomEvent(room, chat(ada.id, 'read at once'), open);
    expect(room.unreadChat).toBe(2);
    room = applyRoomEvent(room, chat(me.id, 'mine, open'), open);
    expect(room.unreadChat).toBe(2);
    expect(room.chat).toHaveLength(5);
  });

  it('before welcome (no id yet) takes every line as someone else’s', () => {
    const room = applyRoomEvent(EMPTY_ROOM, chat(me.id, 'early'), { youId: undefined, isChatOpen: false });
    expect(room.chat[0]!.isMine).toBe(false);
    expect(room.unreadChat).toBe(1);
  });

  it('keeps the server’s order, not the order of the send times', () => {
    let room = EMPTY_ROOM;
    room = applyRoomEvent(room, chat(ada.id, 'first', '2025-01-15T12:00:05.000Z'), open);
    room = applyRoomEvent(room, chat(grace.id, 'second', '2025-01-15T12:00:01.000Z'), open);
    room = applyRoomEvent(room, chat(alan.id, 'third', '2025-01-15T12:00:03.000Z'), open);
    expect(room.chat.map((line) => line.text)).toEqual(['first', 'second', 'third']);
  });

  it('keeps the latest CHAT_HISTORY_LIMIT lines, with ids that stay unique', () => {
    const total = CHAT_HISTORY_LIMIT + 25;
    let room = EMPTY_ROOM;
    for (let index = 0; index < total; index += 1) room = applyRoomEvent(room, chat(ada.id, `line ${index}`), open);
    expect(CHAT_HISTORY_LIMIT).toBe(300);
    expect(room.chat).toHaveLength(CHAT_HISTORY_LIMIT);
    expect(room.chatCount).toBe(total);
    expect(new Set(room.chat.map((line) => line.id)).size).toBe(CHAT_HISTORY_LIMIT);
    expect(room.chat[0]).toMatchObject({ id: 'chat-25', text: 'line 25' });
    expect(room.chat.at(-1)).toMatchObject({ id: `chat-${total - 1}`, text: `line ${total - 1}` });
    room = applyRoomEvent(room, chat(grace.id, 'one more'), open);
    expect(room.chat).toHaveLength(CHAT_HISTORY_LIMIT);
    expect(room.chat.at(-1)).toMatchObject({ id: `chat-${total}`, text: 'one more' });
    expect(room.chat.some((line, index) => room.chat.findIndex((other) => other.id === line.id) !== index)).toBe(false);
  });
});

describe('applyRoomEvent: purity', () => {
  it('never changes the room it is given', () => {
    const before = applyRoomEvent(roomWith([ada, grace]), chat(ada.id, 'hi'), closed);
    const snapshot = structuredClone(before);
    applyRoomEvent(before, welcome([alan]), closed);
    applyRoomEvent(before, { type: 'participant-joined', participant: alan }, closed);
    applyRoomEvent(before, { type: 'participant-left', participantId: ada.id, reason: 'left' }, closed);
    applyRoomEvent(before, { type: 'media-state', from: grace.id, state: ALL_ON }, closed);
    applyRoomEvent(before, chat(grace.id, 'more'), closed);
    expect(before).toEqual(snapshot);
    expect(EMPTY_ROOM).toEqual({ participants: [], chat: [], unreadChat: 0, chatCount: 0 });
  });
});

describe('cameraBitrateFor', () => {
  it('is 900 kbit/s up to 3 people, 600 up to 5, 350 above', () => {
    expect([1, 2, 3].map(cameraBitrateFor)).toEqual([900_000, 900_000, 900_000]);
    expect([4, 5].map(cameraBitrateFor)).toEqual([600_000, 600_000]);
    expect([6, 8, 50].map(cameraBitrateFor)).toEqual([350_000, 350_000, 350_000]);
  });
});
