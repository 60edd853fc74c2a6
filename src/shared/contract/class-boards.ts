import { z } from 'zod/mini';
import {
  boardClientMessageSchema,
  boardJoinMessageSchema,
  boardPenInputSchema,
  boardServerMessageSchema,
  boardTicketSchema,
  CLASS_BOARD_CLOSE_CODES,
  CLASS_BOARD_SOCKET_PATH,
  classBoardParamsSchema,
  classBoardPenSchema,
} from '../class-boards.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * The class board's calls (issue 35, decision 069): the room token of its socket, the stored board
 * in one download (a first open), the pen setting, and the socket itself, where the drawing goes
 * (y-protocols' sync and awareness).
 */

export const issueClassBoardToken = defineEndpoint({
  method: 'POST',
  path: '/api/class-boards/:classId/token',
  summary: "A short-lived room token for a class's board: for a teacher or a student of the class",
  description: 'Anyone else is NOT_FOUND, as an unknown class is (a class id tells nothing outside its class).',
  params: classBoardParamsSchema,
  response: boardTicketSchema,
  errors: ['NOT_FOUND'],
});

export const getClassBoardDocument = defineEndpoint({
  method: 'GET',
  path: '/api/class-boards/:classId/document',
  summary: "A class's stored board as one Yjs update (a page's first open), for its teachers and students",
  description: 'Anyone else is NOT_FOUND, as an unknown class is. Not cached.',
  params: classBoardParamsSchema,
  response: {
    form: 'file',
    mediaType: 'application/octet-stream',
    description:
      'The board as Yjs updates to apply in order (its snapshot, then the updates after it), framed with lib0: their count, then each with its length',
  },
  errors: ['NOT_FOUND'],
});

export const getClassBoardPen = defineEndpoint({
  method: 'GET',
  path: '/api/class-boards/:classId/pen',
  summary: "Who draws on a class's board: everyone, its teachers only, or named students (its teachers)",
  params: classBoardParamsSchema,
  response: classBoardPenSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const setClassBoardPen = defineEndpoint({
  method: 'PUT',
  path: '/api/class-boards/:classId/pen',
  summary: "Hands the pen of a class's board: everyone, its teachers only, or named students (its teachers)",
  description:
    'Ids of students not in the class are left out of `studentIds` (the answer says who holds it). ' +
    'Everyone on the board is told at once; the server refuses the document updates of those without the pen.',
  params: classBoardParamsSchema,
  body: boardPenInputSchema,
  response: classBoardPenSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const classBoardSocket = defineEndpoint({
  method: 'GET',
  path: CLASS_BOARD_SOCKET_PATH,
  summary: `The class board's WebSocket (protocol version 1) on the room transport: y-protocols sync and awareness`,
  description:
    'Browsers cannot set headers on a WebSocket: the room token goes in the query. Every refusal is a close code; ' +
    'the first message must be `join`. Binary y-protocols messages travel base64 in JSON: `sync` (step 1, step 2, ' +
    'update; `ref` is answered by `saved` once stored, or by `error`) and `awareness` (this page’s own state, relayed, ' +
    'never stored). An update that is not a Yjs update or breaks the board’s schema closes with BAD_MESSAGE; one ' +
    'without the pen is `{ type: "error", code: "NO_PEN" }` and the socket stays. A plain HTTP request is answered 426.',
  query: z.object({
    token: z.string().check(z.describe('The room token from POST /api/class-boards/{classId}/token')),
  }),
  response: {
    form: 'websocket',
    clientMessages: z.union([boardJoinMessageSchema, boardClientMessageSchema]),
    serverMessages: boardServerMessageSchema,
    closeCodes: CLASS_BOARD_CLOSE_CODES,
  },
  errors: ['UPGRADE_REQUIRED'],
});
