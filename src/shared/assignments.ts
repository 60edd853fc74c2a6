import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { blankableText, bodyObject, classIdField, halfPoints, pagingFields, requiredText } from './fields.ts';
import { JSON_BODY_LIMIT_BYTES, JSON_BYTES_PER_CHARACTER } from './limits.ts';

/**
 * Assignments and hand-ins (issue 33, decision 058): the limits, the bodies the endpoints take
 * and what they answer. The states and their transitions are the decision's; the server keeps them.
 */

export const ASSIGNMENT_LIMITS = {
  title: 200,
  /** Markdown as typed; rendered by the client without raw HTML. */
  instructions: 20_000,
  classesMax: 20,
  attachmentsMax: 20,
  pointsMax: 1000,
  handInText: 50_000,
  feedback: 5_000,
  comment: 2_000,
  /** Files one hand-in holds at most (decision 061), each up to the server's UPLOAD_MAX_BYTES. */
  handInFilesMax: 10,
  commentPageSizeDefault: 50,
  commentPageSizeMax: 100,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** Dates (due, publish) outside these years are refused: a typo, never a school's plan. */
  yearMin: 2000,
  yearMax: 2100,
} as const;

/** Room for the texts of a create or an edit at 3 bytes a character, and the rest of the form. */
export const ASSIGNMENT_BODY_LIMIT_BYTES =
  ASSIGNMENT_LIMITS.instructions * JSON_BYTES_PER_CHARACTER + JSON_BODY_LIMIT_BYTES;
/** A draft save or a hand-in: the text at 3 bytes a character, and the version. */
export const HAND_IN_BODY_LIMIT_BYTES = ASSIGNMENT_LIMITS.handInText * JSON_BYTES_PER_CHARACTER + 4 * 1024;
/** A grade: the feedback at 3 bytes a character, the points and the version. */
export const GRADE_BODY_LIMIT_BYTES = ASSIGNMENT_LIMITS.feedback * JSON_BYTES_PER_CHARACTER + 4 * 1024;

/** The stored states of a hand-in (decision 058); "not handed in" is no row or a draft. */
export const HAND_IN_STATES = ['draft', 'handed-in', 'graded', 'returned'] as const;
export type HandInState = (typeof HAND_IN_STATES)[number];

/** What a teacher sees of a hand-in's state: a draft is the student's own, shown as not handed in. */
export const TEACHER_HAND_IN_STATES = ['not-handed-in', 'handed-in', 'graded', 'returned'] as const;
export type TeacherHandInState = (typeof TEACHER_HAND_IN_STATES)[number];

/** The student's four groups (issue 33 point 2): what is left to do, overdue, handed in, returned. */
export const STUDENT_ASSIGNMENT_GROUPS = ['todo', 'missing', 'done', 'returned'] as const;
export type StudentAssignmentGroup = (typeof STUDENT_ASSIGNMENT_GROUPS)[number];

const yearOf = (value: string) => new Date(value).getUTCFullYear();

/** A date and time with its offset (the client turns the school's wall time into it), within the years allowed. */
export const assignmentDateField = () =>
  z.pipe(z.string(), z.iso.datetime({ offset: true })).check(
    z.refine((value) => yearOf(value) >= ASSIGNMENT_LIMITS.yearMin && yearOf(value) <= ASSIGNMENT_LIMITS.yearMax, {
      params: fieldCode('DATE_OUT_OF_RANGE', {
        minimum: ASSIGNMENT_LIMITS.yearMin,
        maximum: ASSIGNMENT_LIMITS.yearMax,
      }),
    }),
  );

/** An assignment's points (halves, 0.5–1,000) or null: ungraded. */
export const assignmentPointsField = z.nullable(halfPoints(0.5, ASSIGNMENT_LIMITS.pointsMax));

/** A list of ids without repeats, at most `max`. */
const idList = (max: number, item: z.ZodMiniType<string>) =>
  z.array(item).check(
    z.maxLength(max),
    z.refine((ids) => new Set(ids).size === ids.length, { params: fieldCode('NOT_UNIQUE') }),
  );

// Its own code for none chosen: "Choose at least one class" says more than a list's generic bound.
const classIdsField = idList(ASSIGNMENT_LIMITS.classesMax, classIdField()).check(
  z.refine((ids) => ids.length > 0, { params: fieldCode('NO_CLASS_CHOSEN') }),
);
const attachmentsField = idList(ASSIGNMENT_LIMITS.attachmentsMax, z.uuid());

const assignmentShape = {
  classIds: classIdsField,
  title: requiredText(ASSIGNMENT_LIMITS.title),
  instructions: z._default(blankableText(ASSIGNMENT_LIMITS.instructions), ''),
  points: assignmentPointsField,
  dueAt: z.nullable(assignmentDateField()),
  acceptLate: z._default(z.boolean(), true),
  publishAt: z._default(z.nullable(assignmentDateField()), null),
  attachments: z._default(attachmentsField, []),
};

/** Published before it is due: a later publish time would hide the assignment until after its due time. */
const publishBeforeDue = (value: { dueAt: string | null; publishAt: string | null }) =>
  value.dueAt === null || value.publishAt === null || Date.parse(value.publishAt) <= Date.parse(value.dueAt);
const PUBLISH_AFTER_DUE = {
  path: ['publishAt'],
  params: fieldCode('PUBLISH_AFTER_DUE'),
};

/** POST /api/assignments: a new assignment for one or more of the caller's classes. */
export const newAssignmentSchema = bodyObject(assignmentShape).check(z.refine(publishBeforeDue, PUBLISH_AFTER_DUE));
export type NewAssignment = z.infer<typeof newAssignmentSchema>;
export type NewAssignmentInput = z.input<typeof newAssignmentSchema>;

/** PUT /api/assignments/{id}: the whole assignment again, with the version it was read at. */
export const editAssignmentSchema = bodyObject({
  ...assignmentShape,
  version: z.number().check(z.int(), z.gte(1), z.lte(2 ** 31 - 1)),
}).check(z.refine(publishBeforeDue, PUBLISH_AFTER_DUE));
export type EditAssignment = z.infer<typeof editAssignmentSchema>;

/** POST /api/assignments/{id}/duplicate: the copy's classes, and optionally a new title and times. */
export const duplicateAssignmentSchema = bodyObject({
  classIds: classIdsField,
  title: z.optional(requiredText(ASSIGNMENT_LIMITS.title)),
  dueAt: z.optional(z.nullable(assignmentDateField())),
  publishAt: z.optional(z.nullable(assignmentDateField())),
});
export type DuplicateAssignment = z.infer<typeof duplicateAssignmentSchema>;

export const deletedAssignmentSchema = z.strictObject({ outcome: z.enum(['deleted', 'archived']) });
export type DeletedAssignment = z.infer<typeof deletedAssignmentSchema>;

const versionField = z.number().check(z.int(), z.gte(0), z.lte(2 ** 31 - 1));

/** PUT …/draft and POST …/hand-in: the text, and the version of the hand-in the page read (0: none yet). */
export const handInBodySchema = bodyObject({
  text: z._default(blankableText(ASSIGNMENT_LIMITS.handInText), ''),
  version: versionField,
});
export type HandInBody = z.infer<typeof handInBodySchema>;

/** POST …/take-back: the version the page read. */
export const takeBackBodySchema = bodyObject({ version: versionField });

/** PUT /api/assignments/{id}/hand-ins/{studentId}/grade. */
export const gradeBodySchema = bodyObject({
  /** Null for an ungraded assignment (feedback only). */
  points: z.nullable(halfPoints(0, ASSIGNMENT_LIMITS.pointsMax)),
  feedback: z._default(blankableText(ASSIGNMENT_LIMITS.feedback), ''),
  version: versionField,
});
export type GradeBody = z.infer<typeof gradeBodySchema>;

/** POST /api/assignments/{id}/return-all: one class of the assignment, or every class the caller teaches. */
export const returnAllBodySchema = z.nullish(bodyObject({ classId: z.optional(classIdField()) }));

export const assignmentIdParams = z.object({ id: z.uuid() });
export const handInParams = z.object({
  id: z.uuid(),
  studentId: z.uuid(),
});

export const classAssignmentsQuery = z.object(pagingFields(ASSIGNMENT_LIMITS));
export const handInsQuery = z.object({
  classId: classIdField(),
  ...pagingFields({ pageSizeDefault: 50, pageSizeMax: 200 }),
});
export const studentAssignmentsQuery = z.object({
  group: z.enum(STUDENT_ASSIGNMENT_GROUPS),
  ...pagingFields(ASSIGNMENT_LIMITS),
});

// ---- What the server answers -------------------------------------------------------------

const attachmentSchema = z.strictObject({
  _id: z.string(),
  kind: z.enum(['file', 'link']),
  fileName: z.string(),
  mimeType: z.string(),
  /** A video link's address; null for a file. */
  linkUrl: z.nullable(z.string()),
  /** A file's address signed for the caller (decision 061: a student of any of the assignment's classes opens it); null for a link. */
  fileUrl: z.nullable(z.string()),
});
export type AssignmentAttachment = z.infer<typeof attachmentSchema>;

const assignmentCore = {
  _id: z.string(),
  title: z.string(),
  points: z.nullable(z.number()),
  dueAt: z.nullable(z.string()),
  acceptLate: z.boolean(),
  classes: z.array(z.strictObject({ _id: z.string(), name: z.string() })),
};

/** A teacher's view of an assignment: everything, with how its hand-ins stand. */
export const teacherAssignmentSchema = z.strictObject({
  ...assignmentCore,
  instructions: z.string(),
  publishAt: z.nullable(z.string()),
  archived: z.boolean(),
  version: z.int(),
  attachments: z.array(attachmentSchema),
  createdBy: z.strictObject({ _id: z.string(), name: z.string() }),
  /** The caller created it: they may edit, duplicate and delete it. */
  isOwner: z.boolean(),
  /** Hand-ins of the caller's classes of it: handed in (ever), waiting for a grade, returned. */
  handIns: z.strictObject({ handedIn: z.int(), toGrade: z.int(), returned: z.int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TeacherAssignment = z.infer<typeof teacherAssignmentSchema>;

/** The student's own hand-in: points and feedback only once returned. */
const ownHandInSchema = z.strictObject({
  state: z.enum(HAND_IN_STATES),
  version: z.int(),
  submittedAt: z.nullable(z.string()),
  late: z.boolean(),
  points: z.nullable(z.number()),
  feedback: z.nullable(z.string()),
  returnedAt: z.nullable(z.string()),
  gradeChangedAfterReturn: z.boolean(),
});

/** A student's list entry: the assignment, its group and their hand-in's state (no texts). */
export const studentAssignmentSummarySchema = z.strictObject({
  ...assignmentCore,
  group: z.enum(STUDENT_ASSIGNMENT_GROUPS),
  handIn: z.nullable(ownHandInSchema),
});
export type StudentAssignmentSummary = z.infer<typeof studentAssignmentSummarySchema>;

/** One assignment as its student opens it: instructions, attachments, their hand-in with its text. */
export const studentAssignmentSchema = z.strictObject({
  ...assignmentCore,
  group: z.enum(STUDENT_ASSIGNMENT_GROUPS),
  instructions: z.string(),
  attachments: z.array(attachmentSchema),
  /** Closed to hand-ins: past due with late work refused, or archived. */
  closed: z.boolean(),
  handIn: z.nullable(z.extend(ownHandInSchema, { text: z.string() })),
});
export type StudentAssignment = z.infer<typeof studentAssignmentSchema>;

/** A row of the teacher's hand-in list: every student of the class, handed in or not. */
export const handInRowSchema = z.strictObject({
  student: z.strictObject({ _id: z.string(), name: z.string(), rollNumber: z.string() }),
  state: z.enum(TEACHER_HAND_IN_STATES),
  /** Not handed in and past the due time. */
  missing: z.boolean(),
  late: z.boolean(),
  submittedAt: z.nullable(z.string()),
  points: z.nullable(z.number()),
  feedback: z.nullable(z.string()),
  gradedAt: z.nullable(z.string()),
  returnedAt: z.nullable(z.string()),
  gradeChangedAfterReturn: z.boolean(),
  /** What a grade sends back (0: no hand-in). */
  version: z.int(),
});
export type HandInRow = z.infer<typeof handInRowSchema>;

/** One hand-in as a teacher reads it to grade: the row and the text (empty when not handed in). */
export const handInDetailSchema = z.extend(handInRowSchema, { text: z.string() });
export type HandInDetail = z.infer<typeof handInDetailSchema>;

export const returnedCountSchema = z.strictObject({ returned: z.int() });

// ---- Hand-in files and the private thread (decision 061) ------------------------------------

export const handInFileParams = z.object({
  id: z.uuid(),
  fileId: z.uuid(),
});
export const attachmentFileParams = z.object({
  id: z.uuid(),
  resourceId: z.uuid(),
});
export const storedFileParams = z.object({ id: z.uuid() });

/** A file of a hand-in, with its address signed for the caller. */
export const handInFileSchema = z.strictObject({
  _id: z.string(),
  fileName: z.string(),
  /** Decided from the bytes. */
  mimeType: z.string(),
  size: z.int(),
  createdAt: z.string(),
  url: z.string(),
});
export type HandInFile = z.infer<typeof handInFileSchema>;

/** An upload's answer: the file, and the hand-in's version after it (an upload is a change of the draft). */
export const uploadedHandInFileSchema = z.strictObject({ file: handInFileSchema, version: z.int() });
export type UploadedHandInFile = z.infer<typeof uploadedHandInFileSchema>;
export const handInVersionSchema = z.strictObject({ version: z.int() });

export const commentsQuery = z.object(
  pagingFields({
    pageSizeDefault: ASSIGNMENT_LIMITS.commentPageSizeDefault,
    pageSizeMax: ASSIGNMENT_LIMITS.commentPageSizeMax,
  }),
);
export const commentBodySchema = bodyObject({ text: requiredText(ASSIGNMENT_LIMITS.comment) });
export type CommentBody = z.infer<typeof commentBodySchema>;

/** One comment of a hand-in's private thread; a removed teacher's comments keep their role, without a name. */
export const handInCommentSchema = z.strictObject({
  _id: z.string(),
  author: z.strictObject({
    role: z.enum(['student', 'teacher']),
    _id: z.nullable(z.string()),
    name: z.nullable(z.string()),
  }),
  /** The caller wrote it. */
  mine: z.boolean(),
  text: z.string(),
  createdAt: z.string(),
});
export type HandInComment = z.infer<typeof handInCommentSchema>;
/** A comment body: the text at 3 bytes a character, and the rest of the form. */
export const COMMENT_BODY_LIMIT_BYTES = ASSIGNMENT_LIMITS.comment * JSON_BYTES_PER_CHARACTER + 4 * 1024;
