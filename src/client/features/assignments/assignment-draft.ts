import type { NewAssignmentInput, TeacherAssignment } from '#shared/assignments';
import { fromSchoolInput, toSchoolInput } from './assignment-time.ts';

/** An attachment as the editor holds it: its resource's id, kind and name. */
export type DraftAttachment = Pick<TeacherAssignment['attachments'][number], '_id' | 'kind' | 'fileName'>;

/** The assignment editor's fields as typed (decision 063): dates on the school's clock, points as text. */
export type AssignmentDraft = {
  title: string;
  instructions: string;
  classIds: string[];
  isGraded: boolean;
  points: string;
  /** datetime-local on the school's clock; '' for no due time. */
  due: string;
  acceptLate: boolean;
  isPublishedLater: boolean;
  publish: string;
  attachments: DraftAttachment[];
};

export const emptyAssignmentDraft = (classIds: string[] = []): AssignmentDraft => ({
  title: '',
  instructions: '',
  classIds,
  isGraded: true,
  points: '10',
  due: '',
  acceptLate: true,
  isPublishedLater: false,
  publish: '',
  attachments: [],
});

/** The editor's draft of a stored assignment. */
export function draftOfAssignment(assignment: TeacherAssignment, zone: string): AssignmentDraft {
  return {
    title: assignment.title,
    instructions: assignment.instructions,
    classIds: assignment.classes.map((taught) => taught._id),
    isGraded: assignment.points !== null,
    points: assignment.points === null ? '10' : String(assignment.points),
    due: toSchoolInput(assignment.dueAt, zone),
    acceptLate: assignment.acceptLate,
    isPublishedLater: assignment.publishAt !== null,
    publish: toSchoolInput(assignment.publishAt, zone),
    attachments: assignment.attachments.map(({ _id, kind, fileName }) => ({ _id, kind, fileName })),
  };
}

/** Points as typed, "17.5" or "17,5"; undefined when not a number. */
export function parsePoints(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+([.,]\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed.replace(',', '.'));
}

/** The body the endpoints take: unreadable points are NaN, for the schema to refuse at their field. */
export function bodyOfDraft(draft: AssignmentDraft, zone: string): NewAssignmentInput {
  return {
    classIds: draft.classIds,
    title: draft.title,
    instructions: draft.instructions,
    points: draft.isGraded ? (parsePoints(draft.points) ?? Number.NaN) : null,
    dueAt: fromSchoolInput(draft.due, zone),
    acceptLate: draft.acceptLate,
    publishAt: draft.isPublishedLater ? fromSchoolInput(draft.publish, zone) : null,
    attachments: draft.attachments.map((attachment) => attachment._id),
  };
}

/** The form's field for a body path: a list's problem shows at the list ("attachments.3" -> "attachments"). */
export const assignmentFieldOf = (path: string) => path.split('.')[0] ?? path;

/**
 * After another editor's save (ASSIGNMENT_CHANGED): the latest version's fields, with the
 * teacher's own title and instructions kept, so reloading loses none of their writing.
 */
export const mergeWithLatest = (mine: AssignmentDraft, latest: TeacherAssignment, zone: string): AssignmentDraft => ({
  ...draftOfAssignment(latest, zone),
  title: mine.title,
  instructions: mine.instructions,
});
