import type { FastifyPluginAsync } from 'fastify';
import {
  getClassBoardDocument,
  getClassBoardPen,
  issueClassBoardToken,
  setClassBoardPen,
} from '#shared/contract/class-boards';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { RoomTransport } from '../../realtime/room-socket.ts';
import { storedBoardFor } from './board-download.ts';
import { registerClassBoardSocket, type BoardSocketOptions } from './board-socket.ts';
import type { ClassBoards } from './service.ts';

/** The board's socket: the room transport, and the token and session checks. */
export type ClassBoardSocketSettings = Pick<BoardSocketOptions, 'authenticate' | 'isSessionCurrent'> &
  Partial<Pick<BoardSocketOptions, 'roomSize' | 'joinTimeoutMs' | 'limits'>> & { transport: RoomTransport };

/**
 * The class board's REST routes (issue 35, decision 069): its room token and its stored board (one
 * download, a first open's) for a teacher or student of the class, and the pen setting for its
 * teachers. The socket is added where the transport is.
 */
export function classBoardsRoutes(boards: ClassBoards, socket?: ClassBoardSocketSettings): FastifyPluginAsync {
  return async (app) => {
    // The transport adds the socket's route where it registered WebSocket support (the root).
    const board = socket ? registerClassBoardSocket(socket.transport, { ...socket, boards, log: app.log }) : undefined;
    const taught: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['taught-class-boards'] } } };

    routeEndpoint(
      app,
      issueClassBoardToken,
      { config: { policy: { caller: 'signed-in', touches: ['class-board'] } } },
      async (request) => ({
        message: 'Class board token issued',
        data: await boards.issueToken(currentUser(request), request.params.classId),
      }),
    );
    routeEndpoint(
      app,
      getClassBoardDocument,
      { config: { policy: { caller: 'signed-in', touches: ['class-board'] } } },
      async (request, reply) => {
        const stored = await storedBoardFor(boards, currentUser(request), request.params.classId);
        return reply
          .header('content-type', 'application/octet-stream')
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength));
      },
    );
    routeEndpoint(app, getClassBoardPen, taught, async (request) => ({
      message: 'Pen found',
      data: await boards.pen(currentUser(request).id, request.params.classId),
    }));
    routeEndpoint(app, setClassBoardPen, taught, async (request) => {
      const pen = await boards.setPen(currentUser(request).id, request.params.classId, request.body);
      await board?.penChanged(pen.classId, { mode: pen.mode, studentIds: pen.studentIds });
      return { message: 'Pen handed', data: pen };
    });
  };
}
