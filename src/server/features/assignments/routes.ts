import type { FastifyPluginAsync } from 'fastify';
import {
  createAssignment,
  deleteAssignment,
  duplicateAssignment,
  editAssignment,
  getAssignment,
  getHandIn,
  getStudentAssignment,
  gradeHandIn,
  handInWork,
  listClassAssignments,
  listHandIns,
  listStudentAssignments,
  returnAllHandIns,
  returnHandIn,
  saveHandInDraft,
  takeBackHandIn,
} from '#shared/contract/assignments';
import { ASSIGNMENT_BODY_LIMIT_BYTES, GRADE_BODY_LIMIT_BYTES, HAND_IN_BODY_LIMIT_BYTES } from '#shared/assignments';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { AssignmentAuthoring } from './authoring.ts';
import type { HandIns } from './hand-ins.ts';

/**
 * Assignments and hand-ins (issue 33, decision 058). Who may touch which assignment and hand-in
 * the services decide from the token's account: its creator changes an assignment, the teachers
 * of its classes read and grade, its classes' students hand in their own work.
 */
export function assignmentsRoutes(authoring: AssignmentAuthoring, handIns: HandIns): FastifyPluginAsync {
  return async (app) => {
    const own: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['own-assignments'] } } };
    // Creating one reaches the caller's classes too (requireTaughtClass decides which).
    const ownWithClasses: RouteSettings = {
      config: { policy: { caller: 'teacher', touches: ['own-assignments', 'own-classes'] } },
      bodyLimit: ASSIGNMENT_BODY_LIMIT_BYTES,
    };
    const taught: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['taught-assignments'] } } };
    const classAssignments: RouteSettings = {
      config: { policy: { caller: 'student', touches: ['class-assignments'] } },
    };

    routeEndpoint(app, createAssignment, ownWithClasses, async (request) => {
      const created = await authoring.create(currentUser(request).id, request.body);
      return { message: `Assignment "${created.title}" created`, data: created };
    });
    routeEndpoint(app, editAssignment, ownWithClasses, async (request) => ({
      message: 'Assignment updated',
      data: await authoring.edit(currentUser(request).id, request.params.id, request.body),
    }));
    routeEndpoint(
      app,
      duplicateAssignment,
      { config: { policy: { caller: 'teacher', touches: ['own-assignments', 'own-classes'] } } },
      async (request) => ({
        message: 'Assignment copied',
        data: await authoring.duplicate(currentUser(request).id, request.params.id, request.body),
      }),
    );
    routeEndpoint(app, deleteAssignment, own, async (request) => {
      const deleted = await authoring.remove(currentUser(request).id, request.params.id);
      return {
        message:
          deleted.outcome === 'archived' ? 'Work was handed in: the assignment is archived' : 'Assignment deleted',
        data: deleted,
      };
    });
    routeEndpoint(app, getAssignment, taught, async (request) => ({
      message: 'Assignment found',
      data: await authoring.get(currentUser(request).id, request.params.id),
    }));
    routeEndpoint(
      app,
      listClassAssignments,
      { config: { policy: { caller: 'teacher', touches: ['taught-assignments', 'own-classes'] } } },
      async (request) => {
        const { offset, limit } = request.query;
        return {
          message: 'Assignments found',
          listed: await authoring.listForClass(currentUser(request).id, request.params.id, { offset, limit }),
          page: { offset, limit },
        };
      },
    );

    routeEndpoint(app, listHandIns, taught, async (request) => {
      const { classId, offset, limit } = request.query;
      return {
        message: 'Hand-ins found',
        listed: await handIns.listForClass(currentUser(request).id, request.params.id, classId, { offset, limit }),
        page: { offset, limit },
      };
    });
    routeEndpoint(app, getHandIn, taught, async (request) => ({
      message: 'Hand-in found',
      data: await handIns.getForTeacher(currentUser(request).id, request.params.id, request.params.studentId),
    }));
    routeEndpoint(app, gradeHandIn, { ...taught, bodyLimit: GRADE_BODY_LIMIT_BYTES }, async (request) => ({
      message: 'Grade saved',
      data: await handIns.grade(currentUser(request).id, request.params.id, request.params.studentId, request.body),
    }));
    routeEndpoint(app, returnHandIn, taught, async (request) => ({
      message: 'Work returned',
      data: await handIns.returnOne(currentUser(request).id, request.params.id, request.params.studentId),
    }));
    routeEndpoint(app, returnAllHandIns, taught, async (request) => {
      const done = await handIns.returnAll(currentUser(request).id, request.params.id, request.body?.classId);
      return { message: `${done.returned} returned`, data: done };
    });

    routeEndpoint(app, listStudentAssignments, classAssignments, async (request) => {
      const { group, offset, limit } = request.query;
      return {
        message: 'Assignments found',
        listed: await handIns.listForStudent(currentUser(request).id, group, { offset, limit }),
        page: { offset, limit },
      };
    });
    routeEndpoint(app, getStudentAssignment, classAssignments, async (request) => ({
      message: 'Assignment found',
      data: await handIns.getForStudent(currentUser(request).id, request.params.id),
    }));
    const handInSettings = { ...classAssignments, bodyLimit: HAND_IN_BODY_LIMIT_BYTES };
    routeEndpoint(app, saveHandInDraft, handInSettings, async (request) => ({
      message: 'Draft saved',
      data: await handIns.saveDraft(currentUser(request).id, request.params.id, request.body),
    }));
    routeEndpoint(app, handInWork, handInSettings, async (request) => {
      const handedIn = await handIns.handIn(currentUser(request).id, request.params.id, request.body);
      return { message: handedIn.handIn?.late ? 'Handed in late' : 'Handed in', data: handedIn };
    });
    routeEndpoint(app, takeBackHandIn, classAssignments, async (request) => ({
      message: 'Taken back: it is a draft again',
      data: await handIns.takeBack(currentUser(request).id, request.params.id, request.body.version),
    }));
  };
}
