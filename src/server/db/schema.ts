import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { ASSIGNMENT_LIMITS, type HandInState } from '#shared/assignments';
import { FIELD_LIMITS } from '#shared/limits';
import { CLASS_LIMITS } from '#shared/classes';
import type { PenMode } from '#shared/class-boards';
import { LIVE_GAME_LIMITS, type LiveGameState } from '#shared/live-games';
import { MEETING_LIMITS } from '#shared/meetings';
import { QUIZ_LIMITS, type ReviewAnswers, type ReviewScore } from '#shared/quizzes';
import { QUESTION_LIMITS, type AnswerValue, type StoredQuestion } from '#shared/question-types';
import { RESOURCE_LIMITS } from '#shared/resources';
import { SCHOOL_LIMITS } from '#shared/school';
import { TASK_LIMITS } from '#shared/tasks';
import type { NotificationKind } from '#shared/notifications';

/**
 * Relational schema (ARCHITECTURE: Data). Column sizes come from FIELD_LIMITS so
 * the database refuses what validation would have refused anyway.
 */

export const teachers = pgTable(
  'teachers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: FIELD_LIMITS.name }).notNull(),
    /** As typed (NFC); the email_key column is what identifies (decision 024). */
    email: varchar('email', { length: FIELD_LIMITS.email }).notNull(),
    /** emailKey(email): the unique index and every look-up compare this, never email itself. */
    emailKey: text('email_key').notNull(),
    subject: varchar('subject', { length: FIELD_LIMITS.subject }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Bumped by every task-list write: a stale tab's write is refused instead of losing a task. */
    tasksVersion: integer('tasks_version').notNull().default(0),
    /**
     * Bumped by a password change or "sign out of all devices": session tokens carry the
     * version they were issued under and are refused once it has moved on (decision 017).
     */
    sessionVersion: integer('session_version').notNull().default(0),
    /** Administers the school: invites and deactivates teachers (decision 030). */
    isAdministrator: boolean('is_administrator').notNull().default(false),
    /** The interface's language the teacher chose (issue 32), following them to every device; null: not chosen. */
    locale: varchar('locale', { length: 16 }),
    /** Set while the administrator has deactivated the account: it cannot sign in. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One account per email however it is spelled: the index enforces it race-free.
  (table) => [uniqueIndex('teachers_email_key_unique').on(table.emailKey)],
);

/**
 * The school of this installation (decision 030): one row, id 1, inserted by the setup. Its
 * row is also what changes to the staff's administrators lock, so two administrators removing
 * each other at once cannot leave the school without one.
 */
export const schools = pgTable(
  'schools',
  {
    id: integer('id').primaryKey().default(1),
    name: varchar('name', { length: SCHOOL_LIMITS.name }).notNull(),
    /** The interface's language for whoever has not chosen one (issue 32); a LOCALES key, checked by the contract. */
    defaultLocale: varchar('default_locale', { length: 16 }).notNull().default('en'),
    /** The IANA zone due dates are entered and shown in (decision 062); checked by the contract. */
    timeZone: varchar('time_zone', { length: 64 }).notNull().default('UTC'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('schools_single_row', sql`${table.id} = 1`)],
);

/** An invitation for a teacher to join (decision 030): single use, expires, revocable. */
export const teacherInvitations = pgTable(
  'teacher_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** sha256 of the link's code, hex: the code itself is shown once, to its creator. */
    codeHash: text('code_hash').notNull(),
    note: varchar('note', { length: SCHOOL_LIMITS.invitationNote }).notNull().default(''),
    createdByTeacherId: uuid('created_by_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedByTeacherId: uuid('used_by_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('teacher_invitations_code_hash_unique').on(table.codeHash),
    // The administrator's list: newest first.
    index('teacher_invitations_created_idx').on(table.createdAt.desc(), table.id),
  ],
);

export const students = pgTable(
  'students',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: FIELD_LIMITS.name }).notNull(),
    // Identities as typed (NFC), each beside its key (decision 024): identityKey(roll_number),
    // emailKey(email). Indexes and look-ups use the keys. A student's classes are their
    // class_students rows (decision 031), not a column.
    rollNumber: varchar('roll_number', { length: FIELD_LIMITS.rollNumber }).notNull(),
    rollNumberKey: text('roll_number_key').notNull(),
    email: varchar('email', { length: FIELD_LIMITS.email }).notNull(),
    emailKey: text('email_key').notNull(),
    parentName: varchar('parent_name', { length: FIELD_LIMITS.name }).notNull(),
    parentEmail: varchar('parent_email', { length: FIELD_LIMITS.email }).notNull(),
    passwordHash: text('password_hash').notNull(),
    // Leaderboard aggregates, kept current by the attempt that changes them.
    averageScore: doublePrecision('average_score').notNull().default(0),
    averageAccuracy: doublePrecision('average_accuracy').notNull().default(0),
    totalScore: doublePrecision('total_score').notNull().default(0),
    quizzesAttempted: integer('quizzes_attempted').notNull().default(0),
    /** The teacher who created the account, or null for self-registration. */
    createdByTeacherId: uuid('created_by_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    /** Bumped by every task-list write (see teachers.tasksVersion). */
    tasksVersion: integer('tasks_version').notNull().default(0),
    /** Bumped by a password change or "sign out of all devices" (see teachers.sessionVersion). */
    sessionVersion: integer('session_version').notNull().default(0),
    /** The interface's language the student chose (issue 32); null: not chosen. */
    locale: varchar('locale', { length: 16 }),
    /**
     * Set by a teacher's password reset (decision 033): the student signed in with a temporary
     * password and must choose their own before any other call; cleared by the change.
     */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('students_roll_number_key_unique').on(table.rollNumberKey),
    uniqueIndex('students_email_key_unique').on(table.emailKey),
    // Leaderboards: ranked students (at least one attempt), best average first, equal averages
    // by name then id (decision 027). One class's board walks this index too, keeping the
    // class's members (a semi-join on class_students' primary key).
    index('students_leaderboard_idx')
      .on(table.averageScore.desc(), table.name, table.id)
      .where(sql`${table.quizzesAttempted} > 0`),
    // Name searches (ILIKE '%text%') of the leaderboards: trigrams find a rare name without
    // reading every student (pg_trgm, created by the migration).
    index('students_name_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`),
  ],
);

/**
 * A class of the school (decision 031): quizzes, resources and rosters belong to one. Its
 * name is unique as its key says (decision 024), so "10a " and "10A" are one class.
 */
export const classes = pgTable(
  'classes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** As typed (NFC); name_key is what identifies. */
    name: varchar('name', { length: FIELD_LIMITS.className }).notNull(),
    nameKey: text('name_key').notNull(),
    subject: varchar('subject', { length: FIELD_LIMITS.subject }),
    /** 8 characters of JOIN_CODE_ALPHABET, stored without the dash; null while turned off. */
    joinCode: varchar('join_code', { length: CLASS_LIMITS.joinCodeLength }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('classes_name_key_unique').on(table.nameKey),
    uniqueIndex('classes_join_code_unique').on(table.joinCode),
  ],
);

/** Who teaches a class: its creator (is_owner) and co-teachers. The only way a teacher reaches a class. */
export const classTeachers = pgTable(
  'class_teachers',
  {
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    isOwner: boolean('is_owner').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.classId, table.teacherId] }),
    // "My classes" starts from the teacher.
    index('class_teachers_teacher_idx').on(table.teacherId, table.classId),
  ],
);

/** A student's classes (a homeroom and subject groups). Leaving deletes the row; attempts stay. */
export const classStudents = pgTable(
  'class_students',
  {
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The roster and the class leaderboard walk (class_id, student_id).
    primaryKey({ columns: [table.classId, table.studentId] }),
    // "My classes" of a student: the quiz list, the library, the class switcher.
    index('class_students_student_idx').on(table.studentId, table.classId),
  ],
);

/**
 * A meeting room of a class (decision 035): its id is the room id people join with. Only the
 * teachers and students of the class get a meeting token for it; nothing of a meeting is stored.
 */
export const meetingRooms = pgTable(
  'meeting_rooms',
  {
    id: varchar('id', { length: MEETING_LIMITS.roomIdMax }).primaryKey(),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** Null once that teacher's account is gone; the room stays the class's. */
    createdByTeacherId: uuid('created_by_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A class's rooms, newest first (the meetings screen).
  (table) => [index('meeting_rooms_class_created_idx').on(table.classId, table.createdAt, table.id)],
);

export type ClassRow = typeof classes.$inferSelect;

export type TeacherRow = typeof teachers.$inferSelect;
export type TeacherInvitationRow = typeof teacherInvitations.$inferSelect;
export type StudentRow = typeof students.$inferSelect;

/** A question as stored (decision 036, one union in #shared/question-types): the key never leaves through a student presenter. */
export type { StoredQuestion };

export const quizzes = pgTable(
  'quizzes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: varchar('title', { length: QUIZ_LIMITS.title }).notNull(),
    subject: varchar('subject', { length: FIELD_LIMITS.subject }).notNull(),
    /** The class the quiz is for (decision 031): chosen from the teacher's classes, its name read from there. */
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    maxTimeMinutes: integer('max_time_minutes').notNull(),
    createdByTeacherId: uuid('created_by_teacher_id')
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    background: varchar('background', { length: 200 }).notNull(),
    // A quiz is read whole, so its questions live with it (an edit replaces them, decision 036).
    questions: jsonb('questions').$type<StoredQuestion[]>().notNull(),
    /**
     * Bumped by every edit (decision 036): the instances' question caches are keyed by
     * (id, version), so none validates or lays out a quiz that has changed since.
     */
    version: integer('version').notNull().default(1),
    /** Deleted with attempts (decision 036): hidden from students who did not take it; kept in analytics and averages. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    questionCount: integer('question_count').notNull(),
    /** The points of all questions: what a score is out of (issue 20). */
    totalPoints: numeric('total_points', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    /** When a student who submitted sees the answer key and the score (decision 032). */
    reviewAnswers: varchar('review_answers', { length: 20 }).$type<ReviewAnswers>().notNull().default('after-deadline'),
    reviewScore: varchar('review_score', { length: 20 }).$type<ReviewScore>().notNull().default('after-submit'),
    /**
     * Whether the students' stored averages count this quiz's scores: at once for a score
     * shown after submitting; for one shown after the deadline, from the sweep that passes it.
     */
    scoresReleased: boolean('scores_released').notNull().default(false),
    /**
     * When the last student can still be answering (decision 036): the latest of the deadline
     * plus the time limit and every accommodation's own, plus the grace. The answer key and
     * after-the-deadline scores wait for it. Kept by accommodations.ts (refreshClosesAt) in the
     * transaction of every change to the deadline, the limit or an accommodation.
     */
    closesAt: timestamp('closes_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // A student's quiz list: each of their classes, by deadline.
    index('quizzes_class_id_deadline_idx').on(table.classId, table.deadline),
    index('quizzes_teacher_created_idx').on(table.createdByTeacherId, table.createdAt),
    check('quizzes_review_answers', sql`${table.reviewAnswers} in ('after-deadline', 'after-submit', 'never')`),
    check('quizzes_review_score', sql`${table.reviewScore} in ('after-submit', 'after-deadline')`),
    // The sweep looks only at quizzes whose scores still wait for their deadline.
    index('quizzes_scores_waiting_idx')
      .on(table.closesAt)
      .where(sql`${table.reviewScore} = 'after-deadline' and not ${table.scoresReleased}`),
  ],
);

/**
 * Per attempt, the shuffled order the student sees: question ids, each with its option ids in
 * order (empty for a question without options: true-false, short-text, numeric).
 */
export type AttemptLayout = { questionId: string; options: string[] }[];

export const quizAttempts = pgTable(
  'quiz_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    quizId: uuid('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** startedAt + maxTime: the server's timer. */
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    layout: jsonb('layout').$type<AttemptLayout>().notNull(),
    /** question id -> the type's answer (an option id, option ids, a boolean, a text), saved as the student answers. */
    answers: jsonb('answers').$type<Record<string, AnswerValue>>().notNull().default({}),
    /** question id -> seconds from the start to the first save of an answer to it (analytics); {} before issue 20. */
    answerTimes: jsonb('answer_times').$type<Record<string, number>>().notNull().default({}),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    endedBy: varchar('ended_by', { length: 20 }).$type<'submitted' | 'time-up'>(),
    /** Points earned, in hundredths (issue 20). */
    score: numeric('score', { precision: 8, scale: 2, mode: 'number' }),
    accuracy: numeric('accuracy', { precision: 5, scale: 2 }),
    timeTakenSeconds: integer('time_taken_seconds'),
    /**
     * Essays of this submitted attempt still to be marked by a teacher (decision 046): while
     * above 0 its score is the points so far, shown to nobody as final and counted in no average.
     */
    essaysAwaiting: smallint('essays_awaiting').notNull().default(0),
  },
  (table) => [
    // One attempt per student and quiz, race-free.
    uniqueIndex('quiz_attempts_quiz_student_unique').on(table.quizId, table.studentId),
    index('quiz_attempts_student_idx').on(table.studentId),
    // The sweep looks only at open attempts, by when their time ends.
    index('quiz_attempts_open_ends_idx')
      .on(table.endsAt)
      .where(sql`${table.submittedAt} is null`),
    // An attempt ends all at once (writeClosings): the answer save tests ended_by, which
    // the sweep's partial index does not name, so its plan stays on the (quiz, student) index.
    check('quiz_attempts_ended_together', sql`(${table.submittedAt} is null) = (${table.endedBy} is null)`),
  ],
);

export type QuizRow = typeof quizzes.$inferSelect;
export type QuizAttemptRow = typeof quizAttempts.$inferSelect;

/**
 * One answered essay of a submitted attempt and its teacher's mark (decision 046): written by the
 * closing that submits the attempt, marked by a teacher of the quiz's class. The student's text
 * stays in the attempt's answers. Null points: awaiting marking.
 */
export const quizEssayMarks = pgTable(
  'quiz_essay_marks',
  {
    attemptId: uuid('attempt_id')
      .notNull()
      .references(() => quizAttempts.id, { onDelete: 'cascade' }),
    questionId: varchar('question_id', { length: QUESTION_LIMITS.idMax }).notNull(),
    quizId: uuid('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    /** The question's place in the quiz (fixed once attempts exist): the marking list goes question by question. */
    position: smallint('position').notNull(),
    /** The attempt's submission, copied so the list sorts in one index. */
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    points: numeric('points', { precision: 8, scale: 2, mode: 'number' }),
    comment: varchar('comment', { length: QUESTION_LIMITS.commentMax }),
    /** Null once that teacher's account is gone; the mark stays. */
    markedBy: uuid('marked_by').references(() => teachers.id, { onDelete: 'set null' }),
    markedAt: timestamp('marked_at', { withTimezone: true }),
    /** Bumped by every mark: a mark sends the version it was given on, and a stale one is refused (409). */
    version: integer('version').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.attemptId, table.questionId] }),
    // The marking list: a quiz's essays awaiting marking, question by question, oldest submission first.
    index('quiz_essay_marks_awaiting_idx')
      .on(table.quizId, table.position, table.submittedAt, table.attemptId)
      .where(sql`${table.points} is null`),
    // The same order over every essay of the quiz (the "marked" view, and an attempt's total).
    index('quiz_essay_marks_quiz_idx').on(table.quizId, table.position, table.submittedAt, table.attemptId),
    check('quiz_essay_marks_marked_together', sql`(${table.points} is null) = (${table.markedAt} is null)`),
  ],
);

export type QuizEssayMarkRow = typeof quizEssayMarks.$inferSelect;

/** A change of a quiz's answer key that rescored its submitted attempts (decision 036), shown on its analytics. */
export const quizRegrades = pgTable(
  'quiz_regrades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    quizId: uuid('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    /** Null once that teacher's account is gone; the regrade stays the quiz's. */
    teacherId: uuid('teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    regradedAt: timestamp('regraded_at', { withTimezone: true }).notNull().defaultNow(),
    /** Attempts whose score or accuracy changed. */
    attemptsChanged: integer('attempts_changed').notNull(),
  },
  (table) => [index('quiz_regrades_quiz_idx').on(table.quizId, table.regradedAt)],
);

/** One student's extra time and later deadline on a quiz (decision 036); null: none of that kind. */
export const quizAccommodations = pgTable(
  'quiz_accommodations',
  {
    quizId: uuid('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    extraMinutes: integer('extra_minutes'),
    extraPercent: integer('extra_percent'),
    deadline: timestamp('deadline', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.quizId, table.studentId] }),
    // A student's quiz list joins their own (the primary key leads with the quiz).
    index('quiz_accommodations_student_idx').on(table.studentId),
    check('quiz_accommodations_extra_minutes', sql`${table.extraMinutes} between 0 and 600`),
    check('quiz_accommodations_extra_percent', sql`${table.extraPercent} between 0 and 300`),
  ],
);
export type QuizAccommodationRow = typeof quizAccommodations.$inferSelect;

/** One task of a teacher's or a student's list (SPEC §3 Task); the list is replaced as a whole. */
export const tasks = pgTable(
  'tasks',
  {
    ownerRole: varchar('owner_role', { length: 10 }).$type<'teacher' | 'student'>().notNull(),
    ownerId: uuid('owner_id').notNull(),
    /** The client's random 9-character id (SPEC §9). */
    id: varchar('id', { length: 9 }).notNull(),
    text: varchar('text', { length: TASK_LIMITS.text }).notNull(),
    isCompleted: boolean('is_completed').notNull().default(false),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.ownerRole, table.ownerId, table.id] })],
);

export type TaskRow = typeof tasks.$inferSelect;

/**
 * What changed for someone (issue 33 point 5, decision 059): the recipient as tasks name an
 * owner (a role and the id of that role's table), the kind a NOTIFICATION_PARAMS code and its
 * params data, never a sentence; class_id the class it is about. created_at in milliseconds: marking read compares it with the
 * createdAt the client was shown. Written by notify() inside the producing feature's transaction.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipientRole: varchar('recipient_role', { length: 10 }).$type<'teacher' | 'student'>().notNull(),
    recipientId: uuid('recipient_id').notNull(),
    kind: varchar('kind', { length: 40 }).$type<NotificationKind>().notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    /**
     * The class it is about, if any: listed only while the recipient still belongs to (or
     * teaches) it, so a student who left a class reads nothing of it any more.
     */
    classId: uuid('class_id').references(() => classes.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    // The bell's list: one recipient's, newest first, paged.
    index('notifications_recipient_created_idx').on(
      table.recipientRole,
      table.recipientId,
      table.createdAt.desc(),
      table.id.desc(),
    ),
    // The unread count (and marking read) reads only the unread rows of one recipient.
    index('notifications_recipient_unread_idx')
      .on(table.recipientRole, table.recipientId, table.createdAt)
      .where(sql`${table.readAt} is null`),
    // One "due soon" per student and assignment, materialised when their bell is read (decision 061).
    uniqueIndex('notifications_due_soon_once_idx')
      .on(table.recipientId, sql`(${table.params}->>'assignmentId')`)
      .where(sql`${table.kind} = 'ASSIGNMENT_DUE_SOON'`),
    // A scheduled assignment's notifications move with its publish time (decision 061).
    index('notifications_assignment_posted_idx')
      .on(sql`(${table.params}->>'assignmentId')`)
      .where(sql`${table.kind} = 'ASSIGNMENT_POSTED'`),
    check('notifications_recipient_role', sql`${table.recipientRole} in ('teacher', 'student')`),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;

/**
 * A shared resource (SPEC §3 Resource): an uploaded file (kind 'file', bytes in the
 * file storage under storageKey) or a hosted-video link (kind 'link', linkUrl).
 */
export const resources = pgTable(
  'resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: varchar('kind', { length: 10 }).$type<'file' | 'link'>().notNull(),
    /** The name shown; the user's own file name is only ever data, never a path. */
    fileName: varchar('file_name', { length: RESOURCE_LIMITS.fileName }).notNull(),
    /** Generated by us; null for links. */
    storageKey: varchar('storage_key', { length: 200 }),
    linkUrl: varchar('link_url', { length: RESOURCE_LIMITS.linkUrl }),
    description: varchar('description', { length: RESOURCE_LIMITS.description }),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    /** The class the resource is for (decision 031), as quizzes.classId. */
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id),
    subject: varchar('subject', { length: FIELD_LIMITS.subject }).notNull(),
    /** Decided from the file's content, not from what the browser claimed. */
    mimeType: varchar('mime_type', { length: 127 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    uploadedByTeacherId: uuid('uploaded_by_teacher_id')
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The student library: one class, newest first or by name. listOrder sorts both columns
    // the same way with PostgreSQL's default null placement, which is exactly these ascending
    // indexes read forwards (asc) or backwards (desc): the first page stops after 21 entries.
    index('resources_class_id_created_idx').on(table.classId, table.createdAt, table.id),
    index('resources_class_id_name_idx').on(table.classId, sql`lower(${table.fileName})`, table.id),
    // The teacher's "Uploaded Files".
    index('resources_teacher_created_idx').on(table.uploadedByTeacherId, table.createdAt, table.id),
    // The library's search box (ILIKE '%text%' on the name or the description), as for student names.
    index('resources_file_name_trgm_idx').using('gin', sql`${table.fileName} gin_trgm_ops`),
    index('resources_description_trgm_idx').using('gin', sql`${table.description} gin_trgm_ops`),
  ],
);

/** Which student starred which resource: its own table, so a popular resource's row never grows. */
export const resourceStars = pgTable(
  'resource_stars',
  {
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.resourceId, table.studentId] }),
    // "Starred" lists start from the student.
    index('resource_stars_student_idx').on(table.studentId, table.resourceId),
  ],
);

export type ResourceRow = typeof resources.$inferSelect;

/**
 * Images of quiz questions and options (decision 036): uploaded by a teacher, named in a quiz's
 * questions by `file_key`, stored in the file storage under `storage_key`. Shared by every quiz
 * that names them (a duplicate keeps its original's images); they count in the uploader's
 * storage space like their resources do.
 */
export const quizImages = pgTable(
  'quiz_images',
  {
    /** Random and unguessable; what questions and the serving route name. */
    fileKey: varchar('file_key', { length: 64 }).primaryKey(),
    storageKey: varchar('storage_key', { length: 200 }).notNull().unique(),
    uploadedByTeacherId: uuid('uploaded_by_teacher_id')
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    /** Decided from the file's content: png, jpeg, gif or webp. */
    mimeType: varchar('mime_type', { length: 127 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The teacher's storage space sums their images.
  (table) => [index('quiz_images_teacher_idx').on(table.uploadedByTeacherId)],
);

/**
 * Roster imports (decision 034): the job's state where every instance reads it, so a poll that
 * lands on another instance behind the load balancer still finds it. The generated passwords
 * wait here sealed with the server's secret until their one read, then only hashes remain.
 */
export const rosterImports = pgTable(
  'roster_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** hashing | writing | done | failed (ROSTER_IMPORT_STATES). */
    state: varchar('state', { length: 10 }).notNull(),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull(),
    /** A failed import's reason as JSON: { code, params?, message } (service.ts readFailure). */
    error: text('error'),
    imported: integer('imported'),
    sealedCredentials: text('sealed_credentials'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The running instance's heartbeat; the end, once it ended. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One running import per teacher, however many instances take starts at once.
    uniqueIndex('roster_imports_one_running')
      .on(table.teacherId)
      .where(sql`${table.state} in ('hashing', 'writing')`),
    index('roster_imports_updated_idx').on(table.updatedAt),
  ],
);

/**
 * Assignments (issue 33, decision 058): work a teacher hands out to one or more of their classes.
 * Points null: ungraded. Archived when deleted with hand-ins; `version` is the editors' compare-and-set.
 */
export const assignments = pgTable(
  'assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    createdByTeacherId: uuid('created_by_teacher_id')
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: ASSIGNMENT_LIMITS.title }).notNull(),
    /** Markdown as typed; the client renders it without raw HTML. */
    instructions: varchar('instructions', { length: ASSIGNMENT_LIMITS.instructions }).notNull().default(''),
    points: numeric('points', { precision: 8, scale: 2, mode: 'number' }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    acceptLate: boolean('accept_late').notNull().default(true),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('assignments_teacher_created_idx').on(table.createdByTeacherId, table.createdAt),
    check('assignments_points_positive', sql`${table.points} is null or ${table.points} > 0`),
  ],
);
export type AssignmentRow = typeof assignments.$inferSelect;

/** The classes an assignment is for (one or more); the class's list starts from the class. */
export const assignmentClasses = pgTable(
  'assignment_classes',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.assignmentId, table.classId] }),
    index('assignment_classes_class_idx').on(table.classId, table.assignmentId),
  ],
);

/** Library resources attached to an assignment, in order; a removed resource leaves the list. */
export const assignmentAttachments = pgTable(
  'assignment_attachments',
  {
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.assignmentId, table.resourceId] }),
    index('assignment_attachments_resource_idx').on(table.resourceId),
  ],
);

/**
 * A student's work on an assignment (decision 058): one row per (assignment, student) once they
 * first save or hand in. `version` is bumped by every change: saves and grades compare-and-set it.
 */
export const handIns = pgTable(
  'hand_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    assignmentId: uuid('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    /** The class of the assignment the student was in at the first save: whose teachers grade it. */
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    state: varchar('state', { length: 12 }).$type<HandInState>().notNull(),
    text: varchar('text', { length: ASSIGNMENT_LIMITS.handInText }).notNull().default(''),
    version: integer('version').notNull().default(1),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    late: boolean('late').notNull().default(false),
    points: numeric('points', { precision: 8, scale: 2, mode: 'number' }),
    feedback: varchar('feedback', { length: ASSIGNMENT_LIMITS.feedback }),
    /** Null once that teacher's account is gone; the grade stays. */
    gradedBy: uuid('graded_by').references(() => teachers.id, { onDelete: 'set null' }),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    gradeChangedAfterReturn: boolean('grade_changed_after_return').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('hand_ins_assignment_student_unique').on(table.assignmentId, table.studentId),
    // The teacher's list of one class's hand-ins, and its counts.
    index('hand_ins_assignment_class_idx').on(table.assignmentId, table.classId, table.state),
    // The student's lists start from the student.
    index('hand_ins_student_idx').on(table.studentId, table.assignmentId),
    check('hand_ins_state', sql`${table.state} in ('draft', 'handed-in', 'graded', 'returned')`),
    check('hand_ins_submitted', sql`(${table.state} = 'draft') = (${table.submittedAt} is null)`),
    check('hand_ins_returned', sql`(${table.state} = 'returned') = (${table.returnedAt} is not null)`),
    check('hand_ins_points', sql`${table.points} is null or ${table.points} >= 0`),
  ],
);
export type HandInRow = typeof handIns.$inferSelect;

/** A file handed in with a hand-in, stored in the file storage (as resources' files). */
export const handInFiles = pgTable(
  'hand_in_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    handInId: uuid('hand_in_id')
      .notNull()
      .references(() => handIns.id, { onDelete: 'cascade' }),
    storageKey: varchar('storage_key', { length: 200 }).notNull().unique(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    /** Decided from the file's content, not from what the browser claimed. */
    mimeType: varchar('mime_type', { length: 127 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('hand_in_files_hand_in_idx').on(table.handInId, table.createdAt)],
);

/** The private thread of a hand-in: its student and the class's teachers. Exactly one author. */
export const handInComments = pgTable(
  'hand_in_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    handInId: uuid('hand_in_id')
      .notNull()
      .references(() => handIns.id, { onDelete: 'cascade' }),
    authorStudentId: uuid('author_student_id').references(() => students.id, { onDelete: 'cascade' }),
    authorTeacherId: uuid('author_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    /** The author's role, kept when a teacher's account is gone. */
    authorRole: varchar('author_role', { length: 10 }).$type<'student' | 'teacher'>().notNull(),
    text: varchar('text', { length: ASSIGNMENT_LIMITS.comment }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('hand_in_comments_thread_idx').on(table.handInId, table.createdAt, table.id),
    check('hand_in_comments_role', sql`${table.authorRole} in ('student', 'teacher')`),
  ],
);

/**
 * A live game (issue 34, decision 066): one of a teacher's quizzes played live with one of their
 * classes. `questions` holds the questions it plays (essays and descriptions skipped, listed in
 * `skipped`), copied when it was created with their options in one shuffled order for everyone:
 * an edit of the quiz meanwhile changes neither the game nor its report. Times are the server's.
 */
export const liveGames = pgTable(
  'live_games',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    quizId: uuid('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id, { onDelete: 'cascade' }),
    /** Null once that teacher's account is gone; any teacher of the class hosts the game. */
    hostTeacherId: uuid('host_teacher_id').references(() => teachers.id, { onDelete: 'set null' }),
    /** 6 digits, unique among the games not ended (live_games_pin_active_unique). */
    pin: varchar('pin', { length: LIVE_GAME_LIMITS.pinLength }).notNull(),
    state: varchar('state', { length: 16 }).$type<LiveGameState>().notNull().default('lobby'),
    questions: jsonb('questions').$type<StoredQuestion[]>().notNull(),
    skipped: jsonb('skipped').$type<{ _id: string; type: StoredQuestion['type'] }[]>().notNull().default([]),
    questionCount: smallint('question_count').notNull(),
    /** The question open or last closed, 0-based; -1 in the lobby. */
    currentIndex: smallint('current_index').notNull().default(-1),
    /** The open question's opening and deadline; a pause moves both on by its length when it ends. */
    questionOpenedAt: timestamp('question_opened_at', { withTimezone: true, precision: 3 }),
    questionDeadline: timestamp('question_deadline', { withTimezone: true, precision: 3 }),
    pausedAt: timestamp('paused_at', { withTimezone: true, precision: 3 }),
    questionSeconds: smallint('question_seconds').notNull().default(LIVE_GAME_LIMITS.questionSecondsDefault),
    countsTowardLeaderboard: boolean('counts_toward_leaderboard').notNull().default(false),
    namesHidden: boolean('names_hidden').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Moved by every host's command: a game idle for LIVE_GAME_LIMITS.idleHours is abandoned. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A PIN names one game among those not ended; an ended game's PIN is free again.
    uniqueIndex('live_games_pin_active_unique')
      .on(table.pin)
      .where(sql`${table.state} <> 'ended'`),
    // The dashboards: the games not ended of a class (a student's, a teacher's).
    index('live_games_class_active_idx')
      .on(table.classId, table.createdAt)
      .where(sql`${table.state} <> 'ended'`),
    // A quiz's finished games, newest first (its analytics).
    index('live_games_quiz_ended_idx')
      .on(table.quizId, table.endedAt)
      .where(sql`${table.state} = 'ended'`),
    // Abandoned games, ended when a new game is made.
    index('live_games_idle_idx')
      .on(table.updatedAt)
      .where(sql`${table.state} <> 'ended'`),
    check('live_games_state', sql`${table.state} in ('lobby', 'question-open', 'question-closed', 'paused', 'ended')`),
    check('live_games_pin', sql`${table.pin} ~ '^[0-9]{6}$'`),
    check(
      'live_games_question_seconds',
      sql`${table.questionSeconds} between ${sql.raw(String(LIVE_GAME_LIMITS.questionSecondsMin))} and ${sql.raw(String(LIVE_GAME_LIMITS.questionSecondsMax))}`,
    ),
    check('live_games_index', sql`${table.currentIndex} >= -1 and ${table.currentIndex} < ${table.questionCount}`),
    check('live_games_paused', sql`(${table.state} = 'paused') = (${table.pausedAt} is not null)`),
    check('live_games_ended', sql`(${table.state} = 'ended') = (${table.endedAt} is not null)`),
  ],
);
export type LiveGameRow = typeof liveGames.$inferSelect;

/**
 * A student in a live game: one row per game and student, so a reconnect is the same player with
 * the same score. `firstIndex`: joined after the start, they play from the question after the one
 * then current. The score and streak move only when a question closes.
 */
export const livePlayers = pgTable(
  'live_players',
  {
    gameId: uuid('game_id')
      .notNull()
      .references(() => liveGames.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    score: integer('score').notNull().default(0),
    streak: smallint('streak').notNull().default(0),
    firstIndex: smallint('first_index').notNull().default(0),
    removed: boolean('removed').notNull().default(false),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.gameId, table.studentId] }),
    // A student's games (and the cascade when a student is deleted).
    index('live_players_student_idx').on(table.studentId),
    check('live_players_score', sql`${table.score} >= 0`),
  ],
);
export type LivePlayerRow = typeof livePlayers.$inferSelect;

/**
 * A player's answer to one question of a game: the first one counts (the primary key), scored when
 * it is received (decision 066) and added to the player's score when the question closes.
 */
export const liveAnswers = pgTable(
  'live_answers',
  {
    gameId: uuid('game_id').notNull(),
    questionId: varchar('question_id', { length: QUESTION_LIMITS.idMax }).notNull(),
    studentId: uuid('student_id').notNull(),
    value: jsonb('value').$type<AnswerValue>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull(),
    /** From the question's opening to the receipt, pauses aside. */
    elapsedMs: integer('elapsed_ms').notNull(),
    points: integer('points').notNull(),
    /** The part of the question's points the quiz's scoring gives the answer, 0 to 1. */
    fraction: doublePrecision('fraction').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.gameId, table.questionId, table.studentId] }),
    // An answer is a player's: it goes with them (a deleted student, a deleted game).
    foreignKey({
      name: 'live_answers_player_fk',
      columns: [table.gameId, table.studentId],
      foreignColumns: [livePlayers.gameId, livePlayers.studentId],
    }).onDelete('cascade'),
    // A player's answers (the report's rows, the cascade from the player).
    index('live_answers_player_idx').on(table.gameId, table.studentId),
    check('live_answers_points', sql`${table.points} between 0 and ${sql.raw(String(LIVE_GAME_LIMITS.pointsMax))}`),
    check('live_answers_fraction', sql`${table.fraction} between 0 and 1`),
    check('live_answers_elapsed', sql`${table.elapsedMs} >= 0`),
  ],
);
export type LiveAnswerRow = typeof liveAnswers.$inferSelect;

/** Yjs updates and snapshots, as PostgreSQL's bytea (Buffer on node-postgres, Uint8Array on PGlite). */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * A class's board (issue 35, decision 069): its Yjs document as one compacted snapshot and the
 * updates appended since (class_board_updates), numbered by `last_seq`; and its pen. An update is
 * appended under this row's lock, which is also where the pen, the size and the seat are checked.
 */
export const classBoards = pgTable(
  'class_boards',
  {
    classId: uuid('class_id')
      .primaryKey()
      .references(() => classes.id, { onDelete: 'cascade' }),
    penMode: varchar('pen_mode', { length: 16 }).$type<PenMode>().notNull().default('teachers'),
    /** The students holding the pen in `named` mode. */
    penStudentIds: uuid('pen_student_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Every update up to snapshot_seq, merged; null before the first compaction. */
    snapshot: bytes('snapshot'),
    snapshotSeq: bigint('snapshot_seq', { mode: 'number' }).notNull().default(0),
    snapshotBytes: integer('snapshot_bytes').notNull().default(0),
    /** The last update's number; updates after snapshot_seq are in class_board_updates. */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    logBytes: integer('log_bytes').notNull().default(0),
    logCount: integer('log_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('class_boards_pen_mode', sql`${table.penMode} in ('everyone', 'teachers', 'named')`),
    check('class_boards_seqs', sql`${table.snapshotSeq} between 0 and ${table.lastSeq}`),
  ],
);
export type ClassBoardRow = typeof classBoards.$inferSelect;

/** One accepted Yjs update of a board (only what was new to it), until a compaction folds it into the snapshot. */
export const classBoardUpdates = pgTable(
  'class_board_updates',
  {
    classId: uuid('class_id')
      .notNull()
      .references(() => classBoards.classId, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    update: bytes('update').notNull(),
    /** Who sent it (a teacher's or a student's id); strokes carry their author too. */
    authorId: uuid('author_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.classId, table.seq] })],
);

/**
 * Each Yjs client id of a board and the one person who used it first (migration 0031, decision
 * 069): a pen holder reusing another's id and clock could otherwise shadow their next strokes.
 */
export const classBoardClients = pgTable(
  'class_board_clients',
  {
    classId: uuid('class_id')
      .notNull()
      .references(() => classBoards.classId, { onDelete: 'cascade' }),
    clientId: bigint('client_id', { mode: 'number' }).notNull(),
    /** A teacher's or a student's id. */
    userId: uuid('user_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.classId, table.clientId] })],
);
