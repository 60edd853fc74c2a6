import type {
  AssignmentAttachment,
  HandInDetail,
  HandInRow as PresentedHandInRow,
  StudentAssignment,
  StudentAssignmentGroup,
  StudentAssignmentSummary,
  TeacherAssignment,
} from '#shared/assignments';
import type { AssignmentRow, HandInRow } from '../../db/schema.ts';

/**
 * What leaves the server of an assignment and its hand-ins (decision 058). A student sees points
 * and feedback only once returned; a teacher never sees a draft (the student's own until handed in).
 */

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export type AssignmentExtras = {
  classes: { _id: string; name: string }[];
  attachments: AssignmentAttachment[];
  creatorName: string;
  handIns: TeacherAssignment['handIns'];
};

export function presentTeacherAssignment(
  row: AssignmentRow,
  extras: AssignmentExtras,
  viewerId: string,
): TeacherAssignment {
  return {
    _id: row.id,
    title: row.title,
    instructions: row.instructions,
    points: row.points,
    dueAt: iso(row.dueAt),
    acceptLate: row.acceptLate,
    publishAt: iso(row.publishAt),
    archived: row.archivedAt !== null,
    version: row.version,
    classes: extras.classes,
    attachments: extras.attachments,
    createdBy: { _id: row.createdByTeacherId, name: extras.creatorName },
    isOwner: row.createdByTeacherId === viewerId,
    handIns: extras.handIns,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Not handed in (no row or a draft) and past its due time. */
export const isPastDue = (row: Pick<AssignmentRow, 'dueAt'>, now: Date) =>
  row.dueAt !== null && row.dueAt.getTime() <= now.getTime();

const isHandedIn = (handIn: HandInRow | null): handIn is HandInRow => handIn !== null && handIn.state !== 'draft';

/** The student's group of an assignment, from their hand-in and the clock (the lists' SQL says the same). */
export function groupOf(row: AssignmentRow, handIn: HandInRow | null, now: Date): StudentAssignmentGroup {
  if (handIn?.state === 'returned') return 'returned';
  if (isHandedIn(handIn)) return 'done';
  return isPastDue(row, now) ? 'missing' : 'todo';
}

/** Closed to hand-ins: archived, or past due with late work refused. */
export const isClosed = (row: AssignmentRow, now: Date) =>
  row.archivedAt !== null || (!row.acceptLate && isPastDue(row, now));

function ownHandIn(handIn: HandInRow) {
  const returned = handIn.state === 'returned';
  return {
    state: handIn.state,
    version: handIn.version,
    submittedAt: iso(handIn.submittedAt),
    late: handIn.late,
    points: returned ? handIn.points : null,
    feedback: returned ? handIn.feedback : null,
    returnedAt: iso(handIn.returnedAt),
    gradeChangedAfterReturn: returned && handIn.gradeChangedAfterReturn,
  };
}

type StudentView = { classes: { _id: string; name: string }[] };

export function presentStudentSummary(
  row: AssignmentRow,
  view: StudentView,
  handIn: HandInRow | null,
  now: Date,
): StudentAssignmentSummary {
  return {
    _id: row.id,
    title: row.title,
    points: row.points,
    dueAt: iso(row.dueAt),
    acceptLate: row.acceptLate,
    classes: view.classes,
    group: groupOf(row, handIn, now),
    handIn: handIn ? ownHandIn(handIn) : null,
  };
}

export function presentStudentAssignment(
  row: AssignmentRow,
  view: StudentView & { attachments: AssignmentAttachment[] },
  handIn: HandInRow | null,
  now: Date,
): StudentAssignment {
  return {
    ...presentStudentSummary(row, view, null, now),
    group: groupOf(row, handIn, now),
    instructions: row.instructions,
    attachments: view.attachments,
    closed: isClosed(row, now),
    handIn: handIn ? { ...ownHandIn(handIn), text: handIn.text } : null,
  };
}

export type StudentOfClass = { _id: string; name: string; rollNumber: string };

/** A teacher's row of one student: a draft shows as not handed in, with version 0 (nothing to grade). */
export function presentHandInRow(
  assignment: Pick<AssignmentRow, 'dueAt'>,
  student: StudentOfClass,
  handIn: HandInRow | null,
  now: Date,
): PresentedHandInRow {
  if (!isHandedIn(handIn))
    return {
      student,
      state: 'not-handed-in',
      missing: isPastDue(assignment, now),
      late: false,
      submittedAt: null,
      points: null,
      feedback: null,
      gradedAt: null,
      returnedAt: null,
      gradeChangedAfterReturn: false,
      version: 0,
    };
  return {
    student,
    state: handIn.state as Exclude<HandInRow['state'], 'draft'>,
    missing: false,
    late: handIn.late,
    submittedAt: iso(handIn.submittedAt),
    points: handIn.points,
    feedback: handIn.feedback,
    gradedAt: iso(handIn.gradedAt),
    returnedAt: iso(handIn.returnedAt),
    gradeChangedAfterReturn: handIn.gradeChangedAfterReturn,
    version: handIn.version,
  };
}

export function presentHandInDetail(
  assignment: Pick<AssignmentRow, 'dueAt'>,
  student: StudentOfClass,
  handIn: HandInRow | null,
  now: Date,
): HandInDetail {
  return {
    ...presentHandInRow(assignment, student, handIn, now),
    text: isHandedIn(handIn) ? handIn.text : '',
  };
}
