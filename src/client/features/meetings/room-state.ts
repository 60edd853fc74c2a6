import type { Participant, ServerMessage } from '#shared/meetings';

/**
 * The room as this page knows it, changed only by the server's room events.
 * Pure functions, so the rules (events are safe to apply twice; chat keeps the
 * server's order) are tested without a browser.
 */
export type ChatLine = { id: string; from: string; name: string; text: string; sentAt: string; isMine: boolean };

/** The chat keeps the latest lines; a long meeting must not grow the page without end. */
export const CHAT_HISTORY_LIMIT = 300;

export type RoomState = {
  participants: Participant[];
  chat: ChatLine[];
  /** Chat lines of others that arrived while the chat was closed. */
  unreadChat: number;
  /** Chat lines ever received: gives each line a lasting key. */
  chatCount: number;
};

export const EMPTY_ROOM: RoomState = { participants: [], chat: [], unreadChat: 0, chatCount: 0 };

type RoomEvent = Extract<
  ServerMessage,
  { type: 'welcome' | 'participant-joined' | 'participant-left' | 'chat' | 'media-state' }
>;

export function applyRoomEvent(
  room: RoomState,
  event: RoomEvent,
  context: { youId: string | undefined; isChatOpen: boolean },
): RoomState {
  switch (event.type) {
    case 'welcome':
      // A (re)join starts from the server's list; the chat of this page's earlier connections stays.
      return { ...room, participants: event.participants };
    case 'participant-joined': {
      const others = room.participants.filter((participant) => participant.id !== event.participant.id);
      return { ...room, participants: [...others, event.participant] };
    }
    case 'participant-left':
      return {
        ...room,
        participants: room.participants.filter((participant) => participant.id !== event.participantId),
      };
    case 'media-state':
      return {
        ...room,
        participants: room.participants.map((participant) =>
          participant.id === event.from ? { ...participant, media: event.state } : participant,
        ),
      };
    case 'chat': {
      const isMine = event.from === context.youId;
      const line: ChatLine = {
        id: `chat-${room.chatCount}`,
        from: event.from,
        name: event.name,
        text: event.text,
        sentAt: event.sentAt,
        isMine,
      };
      return {
        ...room,
        chat: [...room.chat, line].slice(-CHAT_HISTORY_LIMIT),
        chatCount: room.chatCount + 1,
        unreadChat: isMine || context.isChatOpen ? room.unreadChat : room.unreadChat + 1,
      };
    }
  }
}

/** The camera's bitrate cap for a room of this many people (each browser sends one copy per other person). */
export function cameraBitrateFor(participantCount: number): number {
  if (participantCount <= 3) return 900_000;
  if (participantCount <= 5) return 600_000;
  return 350_000;
}
