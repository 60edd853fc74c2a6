import { sql } from 'drizzle-orm';
import { doublePrecision, integer, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { FIELD_LIMITS } from '#shared/limits';

/**
 * Relational schema (ARCHITECTURE: Data). Column sizes come from FIELD_LIMITS so
 * the database refuses what validation would have refused anyway.
 */

export const teachers = pgTable(
  'teachers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: FIELD_LIMITS.name }).notNull(),
    email: varchar('email', { length: FIELD_LIMITS.email }).notNull(),
    subject: varchar('subject', { length: FIELD_LIMITS.subject }).notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Emails are compared case-insensitively: the index enforces it race-free.
  (table) => [uniqueIndex('teachers_email_lower_unique').on(sql`lower(${table.email})`)],
);

export const students = pgTable(
  'students',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: varchar('name', { length: FIELD_LIMITS.name }).notNull(),
    rollNumber: varchar('roll_number', { length: FIELD_LIMITS.rollNumber }).notNull(),
    email: varchar('email', { length: FIELD_LIMITS.email }).notNull(),
    className: varchar('class', { length: FIELD_LIMITS.className }).notNull(),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('students_roll_number_lower_unique').on(sql`lower(${table.rollNumber})`),
    uniqueIndex('students_email_lower_unique').on(sql`lower(${table.email})`),
  ],
);

export type TeacherRow = typeof teachers.$inferSelect;
export type StudentRow = typeof students.$inferSelect;
