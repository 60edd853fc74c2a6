import type {
  LiveGameErrorCode,
  LiveGameState,
  LiveGameSummary,
  LiveServerMessage,
  OpenedQuestion,
  PlayerResult,
  RankedPlayer,
  StudentLiveGame,
} from '#shared/live-games';

/**
 * A live game as one page knows it (host or player), built from the server's messages only
 * (decision 066): the server referees, the page shows. Pure, so the screens and the tests share
 * it. Messages may repeat what a welcome said (they were on their way while the page joined):
 * each is applied by question index, so a repeat changes nothing.
 */

type ClosedQuestion = Extract<LiveServerMessage, { type: 'question-closed' }>;
type FinalResult = Extract<LiveServerMessage, { type: 'your-final' }>;

export type LivePlayerRef = { _id: string; name: string };

export type LiveState = {
  role: 'host' | 'player' | null;
  state: LiveGameState | null;
  /** The host's view of the game (PIN, class, quiz, settings). */
  game: LiveGameSummary | null;
  /** The player's view of the game. */
  studentGame: StudentLiveGame | null;
  /** Hosts: everyone who joined and was not removed, in joining order. */
  players: LivePlayerRef[];
  playerCount: number;
  questionSeconds: number;
  namesHidden: boolean;
  /** The question open (or paused), without its key. */
  question: OpenedQuestion | null;
  /** Local time of the open question's deadline (the server's deadline moved onto this clock). */
  deadlineAt: number | null;
  paused: { index: number; remainingMs: number } | null;
  /** Hosts: answers to the open question, of how many who can answer. */
  answerCount: { index: number; answered: number; players: number } | null;
  /** The question last closed: its key and distribution. */
  closed: ClosedQuestion | null;
  /** Hosts: the top five after the last close. */
  top: RankedPlayer[];
  podium: RankedPlayer[] | null;
  /** Players: their id, score, streak, first question. */
  you: { _id: string; score: number; streak: number; firstIndex: number } | null;
  /** Players: they answered the open question (the server acknowledged it). */
  hasAnswered: boolean;
  result: PlayerResult | null;
  final: Omit<FinalResult, 'type'> | null;
  removed: boolean;
  /** The last refusal of one of this page's messages, numbered so the same code twice is seen twice. */
  refusal: { code: LiveGameErrorCode; seq: number } | null;
  /** The seat to take back when reconnecting. */
  seatId: string | null;
};

export const emptyLiveState: LiveState = {
  role: null,
  state: null,
  game: null,
  studentGame: null,
  players: [],
  playerCount: 0,
  questionSeconds: 0,
  namesHidden: false,
  question: null,
  deadlineAt: null,
  paused: null,
  answerCount: null,
  closed: null,
  top: [],
  podium: null,
  you: null,
  hasAnswered: false,
  result: null,
  final: null,
  removed: false,
  refusal: null,
  seatId: null,
};

/** The server's time `iso` on this page's clock, from the server's clock at sending (`serverTime`). */
const onLocalClock = (iso: string, serverTime: string, receivedAt: number) =>
  Date.parse(iso) - Date.parse(serverTime) + receivedAt;

/** The index the page stands at: the open question's, else the last closed one's, else -1. */
export const currentIndex = (state: LiveState) => state.question?.index ?? state.closed?.index ?? -1;

export function applyLiveMessage(state: LiveState, message: LiveServerMessage, receivedAt = Date.now()): LiveState {
  switch (message.type) {
    case 'seated':
      return { ...state, seatId: message.seatId };
    case 'host-welcome': {
      const { game, question, paused, closed, podium } = message;
      return {
        ...state,
        role: 'host',
        state: game.state,
        game,
        players: message.players,
        playerCount: game.playerCount,
        questionSeconds: game.questionSeconds,
        namesHidden: game.namesHidden,
        question,
        deadlineAt: question ? onLocalClock(question.deadline, question.serverTime, receivedAt) : null,
        paused,
        answerCount: question
          ? { index: question.index, answered: message.answered, players: message.answering }
          : null,
        closed: closed ? { type: 'question-closed', ...closed } : null,
        top: closed?.top ?? [],
        podium,
        removed: false,
      };
    }
    case 'player-welcome': {
      const { game, question, paused } = message;
      return {
        ...state,
        role: 'player',
        state: game.state,
        studentGame: game,
        you: message.you,
        question,
        deadlineAt: question ? onLocalClock(question.deadline, question.serverTime, receivedAt) : null,
        paused,
        hasAnswered: message.answered,
        result: message.result,
        final: message.final,
        closed: null,
        removed: false,
      };
    }
    case 'player-joined':
      if (state.players.some((player) => player._id === message.player._id)) {
        return { ...state, playerCount: message.playerCount };
      }
      return { ...state, players: [...state.players, message.player], playerCount: message.playerCount };
    case 'player-removed':
      return {
        ...state,
        players: state.players.filter((player) => player._id !== message.playerId),
        playerCount: message.playerCount,
      };
    case 'question-opened': {
      if (state.question?.index === message.index || message.index < currentIndex(state)) return state;
      const { type: _type, ...question } = message;
      return {
        ...state,
        state: 'question-open',
        question,
        deadlineAt: onLocalClock(message.deadline, message.serverTime, receivedAt),
        paused: null,
        hasAnswered: false,
        answerCount: { index: message.index, answered: 0, players: state.playerCount },
        result: null,
      };
    }
    case 'answer-accepted':
      return state.question?.question._id === message.questionId ? { ...state, hasAnswered: true } : state;
    case 'answer-count':
      return state.question?.index === message.index
        ? { ...state, answerCount: { index: message.index, answered: message.answered, players: message.players } }
        : state;
    case 'question-closed':
      if (state.closed?.index === message.index && !state.question) return state;
      if (message.index < currentIndex(state)) return state;
      return { ...state, state: 'question-closed', question: null, deadlineAt: null, paused: null, closed: message };
    case 'your-result': {
      const { type: _type, ...result } = message;
      return {
        ...state,
        result,
        you: state.you ? { ...state.you, score: message.score, streak: message.streak } : state.you,
      };
    }
    case 'leaderboard':
      return { ...state, top: message.top };
    case 'paused':
      return state.question?.index === message.index
        ? { ...state, state: 'paused', paused: { index: message.index, remainingMs: message.remainingMs } }
        : state;
    case 'resumed':
    case 'time-added':
      return state.question?.index === message.index
        ? {
            ...state,
            state: 'question-open',
            paused: null,
            deadlineAt: onLocalClock(message.deadline, message.serverTime, receivedAt),
            question: { ...state.question, deadline: message.deadline },
          }
        : state;
    case 'names-hidden':
      // Hidden at once on what the projector shows already; names come back with the next leaderboard.
      return message.hidden
        ? {
            ...state,
            namesHidden: true,
            top: state.top.map((player) => ({ ...player, name: null })),
            podium: state.podium?.map((player) => ({ ...player, name: null })) ?? null,
          }
        : { ...state, namesHidden: false };
    case 'question-seconds':
      return { ...state, questionSeconds: message.seconds };
    case 'removed':
      return { ...state, removed: true };
    case 'ended':
      return { ...state, state: 'ended', question: null, deadlineAt: null, paused: null, podium: message.podium };
    case 'your-final': {
      const { type: _type, ...final } = message;
      return { ...state, final, you: state.you ? { ...state.you, score: message.score } : state.you };
    }
    case 'error':
      return {
        ...state,
        hasAnswered: state.hasAnswered || message.code === 'ALREADY_ANSWERED',
        refusal: { code: message.code, seq: (state.refusal?.seq ?? 0) + 1 },
      };
  }
}

/** Milliseconds left to answer, on this page's clock (the paused remainder while paused). */
export function remainingMs(state: LiveState, now = Date.now()): number {
  if (state.paused) return state.paused.remainingMs;
  if (state.deadlineAt === null) return 0;
  return Math.max(0, state.deadlineAt - now);
}
