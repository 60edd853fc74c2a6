import { z } from 'zod/mini';
import { studentAccountFields } from './accounts.ts';
import { blankableText, bodyObject, classNameText, joinCodeText } from './fields.ts';
import { FIELD_LIMITS } from './limits.ts';

/** Classes as records (issue 19 points 3–5, decision 031): schemas, limits, join codes. */

export const CLASS_LIMITS = {
  joinCodeLength: 8,
} as const;

/** No 0/O, 1/I/L: a code read aloud or off a board is typed right. 31⁸ ≈ 8.5·10¹¹ codes. */
export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A stored code (8 characters) as shown: `ABCD-EFGH`. */
export const formatJoinCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What a person typed as a code, as stored: any case, with or without the dash or spaces.
 * Null when it cannot be a code, so a typo is refused without a look-up.
 */
export function normalizeJoinCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== CLASS_LIMITS.joinCodeLength) return null;
  for (const character of code) if (!JOIN_CODE_ALPHABET.includes(character)) return null;
  return code;
}

const subjectText = () => blankableText(FIELD_LIMITS.subject);

export const createClassSchema = bodyObject({
  name: classNameText(),
  /** Blank means none. */
  subject: z.optional(subjectText()),
});
export type CreateClass = z.input<typeof createClassSchema>;

export const updateClassSchema = bodyObject({
  name: z.optional(classNameText()),
  subject: z.optional(subjectText()),
});
export type UpdateClass = z.input<typeof updateClassSchema>;

export const classTeacherSchema = z.strictObject({ _id: z.string(), name: z.string(), isOwner: z.boolean() });

/** One class as its teachers see it. */
export const teacherClassSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  subject: z.nullable(z.string()),
  /** As shown (`ABCD-EFGH`), or null while turned off. */
  joinCode: z.nullable(z.string()),
  isArchived: z.boolean(),
  studentCount: z.int(),
  teachers: z.array(classTeacherSchema),
  createdAt: z.iso.datetime(),
});
export type TeacherClass = z.infer<typeof teacherClassSchema>;

/** One class as its students see it: never the code or the other students. */
export const studentClassSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  subject: z.nullable(z.string()),
});
export type StudentClass = z.infer<typeof studentClassSchema>;

export const addCoTeacherSchema = bodyObject({ teacherId: z.uuid() });
export type AddCoTeacher = z.input<typeof addCoTeacherSchema>;

/**
 * A class no teacher teaches (a class only students named before issue 19, or one whose last
 * teacher is gone), as the administrator sees it: never its code or its roster (decision 031).
 */
export const untaughtClassSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  subject: z.nullable(z.string()),
  isArchived: z.boolean(),
  studentCount: z.int(),
});
export type UntaughtClass = z.infer<typeof untaughtClassSchema>;

/** The administrator gives an untaught class a teacher, who becomes its owner. */
export const assignClassTeacherSchema = bodyObject({
  teacherId: z.uuid(),
});
export type AssignClassTeacher = z.input<typeof assignClassTeacherSchema>;

/** An untaught class once given its teacher: whom it now has. */
export const assignedClassSchema = z.extend(untaughtClassSchema, { teachers: z.array(classTeacherSchema) });
export type AssignedClass = z.infer<typeof assignedClassSchema>;

export const joinClassSchema = bodyObject({ classCode: joinCodeText() });
export type JoinClass = z.input<typeof joinClassSchema>;

/** Moving a student to another class of the caller (issue 19 point 7): the class they go to. */
export const moveClassStudentSchema = bodyObject({
  toClassId: z.uuid(),
});
export type MoveClassStudent = z.infer<typeof moveClassStudentSchema>;

/** A new student account made by a teacher of the class, straight into it: the class comes from the address. */
export const addClassStudentSchema = bodyObject(studentAccountFields);
export type AddClassStudent = z.infer<typeof addClassStudentSchema>;

/** One student of a class's roster, with the contact details its teachers need. */
export const rosterEntrySchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  rollNumber: z.string(),
  email: z.string(),
  parentName: z.string(),
  parentEmail: z.string(),
  joinedAt: z.iso.datetime(),
});
export type RosterEntry = z.infer<typeof rosterEntrySchema>;
