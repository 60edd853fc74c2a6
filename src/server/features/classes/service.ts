import { randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  CLASS_LIMITS,
  JOIN_CODE_ALPHABET,
  normalizeJoinCode,
  type AddCoTeacher,
  type AssignClassTeacher,
  type AssignedClass,
  type CreateClass,
  type JoinClass,
  type MoveClassStudent,
  type RosterEntry,
  type StudentClass,
  type TeacherClass,
  type UntaughtClass,
  type UpdateClass,
} from '#shared/classes';
import { identityKey } from '#shared/identity';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { violatedUniqueConstraint } from '../../db/errors.ts';
import { classes, classStudents, classTeachers, students, teachers, type ClassRow } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { presentRosterEntry, presentStudentClass, presentTeacherClass, presentUntaughtClass } from './presenters.ts';
import { requireTaughtClass } from './records.ts';
import { byName } from '../../db/name-order.ts';

/** A new join code: 8 characters of the unambiguous alphabet, from the system's CSPRNG. */
export const newJoinCode = () =>
  Array.from(
    { length: CLASS_LIMITS.joinCodeLength },
    () => JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)],
  ).join('');

const nameTaken = () =>
  conflict('CLASS_NAME_TAKEN', 'The school already has a class with this name', { field: 'name', code: 'TAKEN' });
const codeInvalid = () =>
  new AppError(
    'CLASS_CODE_INVALID',
    'No class has this code, or it was changed or turned off. Check the code with your teacher.',
    { errors: [{ field: 'classCode', code: 'CLASS_CODE_INVALID', message: 'This class code does not work' }] },
  );

/** Runs a write that sets a name or a join code: a taken name is a 409; a code that collided (1 in 10¹¹) is retried. */
async function withUniqueName<T>(write: (joinCode: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write(newJoinCode());
    } catch (error) {
      const constraint = violatedUniqueConstraint(error);
      if (constraint === 'classes_name_key_unique') throw nameTaken();
      if (constraint !== 'classes_join_code_unique' || attempt >= 3) throw error;
    }
  }
}

/**
 * The class of a join code a student may join: active, code turned on. Null for anything
 * else, so a wrong, rotated, turned-off or archived code all read alike.
 */
export async function classOfJoinCode(
  db: Pick<Database, 'select'>,
  typed: string,
): Promise<{ id: string; name: string } | null> {
  const code = normalizeJoinCode(typed);
  if (code === null) return null;
  const [found] = await db
    .select({ id: classes.id, name: classes.name })
    .from(classes)
    .where(and(eq(classes.joinCode, code), isNull(classes.archivedAt)))
    .limit(1);
  return found ?? null;
}

/** The class of a join code a student may join, or 400 CLASS_CODE_INVALID on the `classCode` field. */
export async function requireClassOfJoinCode(db: Pick<Database, 'select'>, typed: string) {
  const target = await classOfJoinCode(db, typed);
  if (!target) throw codeInvalid();
  return target;
}

/** Joins `studentId` to the class of `typed` inside the caller's transaction, or refuses with CLASS_CODE_INVALID. */
export async function joinByCode(tx: Pick<Database, 'select' | 'insert'>, studentId: string, typed: string) {
  const target = await requireClassOfJoinCode(tx, typed);
  await tx.insert(classStudents).values({ classId: target.id, studentId }).onConflictDoNothing();
  return target.id;
}

/**
 * An active teacher of the school, their row held until the transaction ends (a deactivation
 * waits for it), or 400 TEACHER_NOT_ACTIVE on the `teacherId` field.
 */
async function requireActiveTeacher(tx: Pick<Database, 'select'>, teacherId: string): Promise<string> {
  const [teacher] = await tx
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.id, teacherId), isNull(teachers.deactivatedAt)))
    .for('share')
    .limit(1);
  if (!teacher)
    throw new AppError('TEACHER_NOT_ACTIVE', 'Choose an active teacher of the school', {
      errors: [{ field: 'teacherId', code: 'TEACHER_NOT_ACTIVE', message: 'Not an active teacher of the school' }],
    });
  return teacher.id;
}

/** No active teacher teaches the class: none ever did (a class only students named), or all were deactivated. */
const isUntaught = () =>
  sql`not exists (select 1 from ${classTeachers} join ${teachers} on ${teachers.id} = ${classTeachers.teacherId}
    where ${classTeachers.classId} = ${classes.id} and ${teachers.deactivatedAt} is null)`;

export function createClassesService(db: Database, cache: ReadCache) {
  /** After a membership change has committed: the student's lists and the class's leaderboard are stale. */
  const membershipChanged = (studentId: string) =>
    cache.changed([cacheTags.studentClasses(studentId), cacheTags.classMemberships]);

  /** The classes of `ids` as their teachers see them, in the order of `ids`. */
  async function presentClasses(ids: string[]): Promise<TeacherClass[]> {
    if (ids.length === 0) return [];
    const [rows, teaching, counts] = await Promise.all([
      db.select().from(classes).where(inArray(classes.id, ids)),
      db
        .select({
          classId: classTeachers.classId,
          id: teachers.id,
          name: teachers.name,
          isOwner: classTeachers.isOwner,
        })
        .from(classTeachers)
        .innerJoin(teachers, eq(teachers.id, classTeachers.teacherId))
        // A deactivated teacher cannot sign in or teach: not one of the class's teachers to its colleagues.
        .where(and(inArray(classTeachers.classId, ids), isNull(teachers.deactivatedAt)))
        .orderBy(desc(classTeachers.isOwner), asc(byName(teachers.name)), asc(teachers.id)),
      db
        .select({ classId: classStudents.classId, students: count() })
        .from(classStudents)
        .where(inArray(classStudents.classId, ids))
        .groupBy(classStudents.classId),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      return [
        presentTeacherClass(
          row,
          teaching.filter((teacher) => teacher.classId === id),
          counts.find((entry) => entry.classId === id)?.students ?? 0,
        ),
      ];
    });
  }

  const presentOne = async (id: string) => (await presentClasses([id]))[0]!;

  async function roster(
    classId: string,
    studentId?: string,
    executor: Pick<Database, 'select'> = db,
  ): Promise<RosterEntry[]> {
    const rows = await executor
      .select({
        id: students.id,
        name: students.name,
        rollNumber: students.rollNumber,
        email: students.email,
        parentName: students.parentName,
        parentEmail: students.parentEmail,
        joinedAt: classStudents.joinedAt,
      })
      .from(classStudents)
      .innerJoin(students, eq(students.id, classStudents.studentId))
      .where(and(eq(classStudents.classId, classId), studentId === undefined ? undefined : eq(students.id, studentId)))
      .orderBy(asc(byName(students.name)), asc(students.id));
    return rows.map(presentRosterEntry);
  }

  async function studentClasses(studentId: string): Promise<StudentClass[]> {
    const rows = await db
      .select({ id: classes.id, name: classes.name, subject: classes.subject })
      .from(classStudents)
      .innerJoin(classes, eq(classes.id, classStudents.classId))
      .where(eq(classStudents.studentId, studentId))
      .orderBy(asc(classes.nameKey));
    return rows.map(presentStudentClass);
  }

  /** A change to one class of the teacher, its row locked, answered as the teacher sees it. */
  async function changeTaught(
    teacherId: string,
    classId: string,
    change: (tx: Database, row: ClassRow) => Promise<unknown>,
  ): Promise<TeacherClass> {
    await db.transaction(async (tx) => {
      const row = await requireTaughtClass(tx, teacherId, classId, { forUpdate: true });
      await change(tx, row);
    });
    return presentOne(classId);
  }

  return {
    /** The teacher's classes: active ones by name, then archived ones. */
    async listForTeacher(teacherId: string): Promise<TeacherClass[]> {
      const rows = await db
        .select({ id: classes.id })
        .from(classTeachers)
        .innerJoin(classes, eq(classes.id, classTeachers.classId))
        .where(eq(classTeachers.teacherId, teacherId))
        .orderBy(sql`${classes.archivedAt} is not null`, asc(classes.nameKey));
      return presentClasses(rows.map((row) => row.id));
    },

    async create(teacherId: string, input: CreateClass): Promise<TeacherClass> {
      const name = input.name.normalize('NFC').trim();
      const id = await withUniqueName((joinCode) =>
        db.transaction(async (tx) => {
          const [created] = await tx
            .insert(classes)
            .values({ name, nameKey: identityKey(name), subject: input.subject?.trim() || null, joinCode })
            .returning({ id: classes.id });
          await tx.insert(classTeachers).values({ classId: created!.id, teacherId, isOwner: true });
          return created!.id;
        }),
      );
      return presentOne(id);
    },

    async update(teacherId: string, classId: string, input: UpdateClass): Promise<TeacherClass> {
      const values = {
        ...(input.name === undefined
          ? {}
          : { name: input.name.normalize('NFC').trim(), nameKey: identityKey(input.name) }),
        ...(input.subject === undefined ? {} : { subject: input.subject.trim() || null }),
      };
      return withUniqueName(() =>
        changeTaught(teacherId, classId, async (tx) => {
          if (Object.keys(values).length > 0) await tx.update(classes).set(values).where(eq(classes.id, classId));
        }),
      );
    },

    archive: (teacherId: string, classId: string) =>
      changeTaught(teacherId, classId, (tx, row) =>
        tx
          .update(classes)
          .set({ archivedAt: row.archivedAt ?? sql`now()` })
          .where(eq(classes.id, classId)),
      ),

    unarchive: (teacherId: string, classId: string) =>
      changeTaught(teacherId, classId, (tx) =>
        tx.update(classes).set({ archivedAt: null }).where(eq(classes.id, classId)),
      ),

    rotateCode: (teacherId: string, classId: string) =>
      withUniqueName((joinCode) =>
        changeTaught(teacherId, classId, (tx) => tx.update(classes).set({ joinCode }).where(eq(classes.id, classId))),
      ),

    turnOffCode: (teacherId: string, classId: string) =>
      changeTaught(teacherId, classId, (tx) =>
        tx.update(classes).set({ joinCode: null }).where(eq(classes.id, classId)),
      ),

    addCoTeacher: (teacherId: string, classId: string, input: AddCoTeacher) =>
      changeTaught(teacherId, classId, async (tx) => {
        const colleague = await requireActiveTeacher(tx, input.teacherId);
        await tx.insert(classTeachers).values({ classId, teacherId: colleague }).onConflictDoNothing();
      }),

    /**
     * A teacher may leave a class; only its owner removes another teacher (so a co-teacher cannot
     * take a class from the teacher who made it). Never the last: the class row is locked. An
     * owner who leaves hands the class to the remaining teacher first by name.
     */
    removeTeacher: (teacherId: string, classId: string, memberId: string) =>
      changeTaught(teacherId, classId, async (tx) => {
        const teaching = await tx
          .select({
            teacherId: classTeachers.teacherId,
            isOwner: classTeachers.isOwner,
            isActive: sql<boolean>`${teachers.deactivatedAt} is null`,
          })
          .from(classTeachers)
          .innerJoin(teachers, eq(teachers.id, classTeachers.teacherId))
          .where(eq(classTeachers.classId, classId))
          // The active teachers first, each group by name: the next owner is the first of them.
          .orderBy(sql`${teachers.deactivatedAt} is not null`, asc(byName(teachers.name)), asc(teachers.id));
        const removed = teaching.find((row) => row.teacherId === memberId);
        if (!removed) throw notFound('This teacher does not teach the class');
        const isCallerOwner = teaching.some((row) => row.teacherId === teacherId && row.isOwner);
        if (memberId !== teacherId && !isCallerOwner)
          throw forbidden("Only the class's owner removes another teacher; you may leave the class yourself");
        // A deactivated teacher cannot sign in: a class left with only them has nobody to run it.
        if (!teaching.some((row) => row.teacherId !== memberId && row.isActive))
          throw conflict('LAST_CLASS_TEACHER', 'A class keeps at least one active teacher: add another first');
        await tx
          .delete(classTeachers)
          .where(and(eq(classTeachers.classId, classId), eq(classTeachers.teacherId, memberId)));
        const remaining = teaching.filter((row) => row.teacherId !== memberId);
        if (!remaining.some((row) => row.isOwner))
          await tx
            .update(classTeachers)
            .set({ isOwner: true })
            .where(and(eq(classTeachers.classId, classId), eq(classTeachers.teacherId, remaining[0]!.teacherId)));
      }),

    async roster(teacherId: string, classId: string): Promise<RosterEntry[]> {
      await requireTaughtClass(db, teacherId, classId);
      return roster(classId);
    },

    /** The student leaves the class; their account and attempts stay. */
    async removeStudent(teacherId: string, classId: string, studentId: string): Promise<RosterEntry[]> {
      await db.transaction(async (tx) => {
        await requireTaughtClass(tx, teacherId, classId);
        const [removed] = await tx
          .delete(classStudents)
          .where(and(eq(classStudents.classId, classId), eq(classStudents.studentId, studentId)))
          .returning({ studentId: classStudents.studentId });
        if (!removed) throw notFound('This student is not in the class');
      });
      await membershipChanged(studentId);
      return roster(classId);
    },

    /**
     * The student leaves one class of the caller and joins another, active one (issue 19 point
     * 7), in one transaction: the student's row is locked first, so two moves of one student run
     * one after the other (the second finds them gone from its class: 404), never leaving them
     * in neither class or deadlocked. Already in the target: the membership stays as it is.
     */
    async moveStudent(
      teacherId: string,
      fromClassId: string,
      studentId: string,
      input: MoveClassStudent,
    ): Promise<RosterEntry> {
      if (input.toClassId === fromClassId)
        throw badRequest('Choose another class', [
          { field: 'toClassId', code: 'ALREADY_IN_CLASS', message: 'The student is in this class' },
        ]);
      const entry = await db.transaction(async (tx) => {
        await requireTaughtClass(tx, teacherId, fromClassId);
        await requireTaughtClass(tx, teacherId, input.toClassId, { mustBeActive: true });
        await tx.select({ id: students.id }).from(students).where(eq(students.id, studentId)).for('no key update');
        const [removed] = await tx
          .delete(classStudents)
          .where(and(eq(classStudents.classId, fromClassId), eq(classStudents.studentId, studentId)))
          .returning({ studentId: classStudents.studentId });
        if (!removed) throw notFound('This student is not in the class');
        await tx.insert(classStudents).values({ classId: input.toClassId, studentId }).onConflictDoNothing();
        // Read inside the transaction: a move back committed right after this one must not
        // turn this one's answer into a 404.
        const [moved] = await roster(input.toClassId, studentId, tx);
        return moved!;
      });
      await membershipChanged(studentId);
      return entry;
    },

    studentClasses,

    /** Classes no active teacher teaches (administrators, decision 031), by name, archived ones too. */
    async listUntaught(page: { offset: number; limit: number }): Promise<{ items: UntaughtClass[]; hasMore: boolean }> {
      const rows = await db
        .select({
          id: classes.id,
          name: classes.name,
          subject: classes.subject,
          archivedAt: classes.archivedAt,
          studentCount: sql<number>`(select count(*)::int from ${classStudents} where ${classStudents.classId} = ${classes.id})`,
        })
        .from(classes)
        .where(isUntaught())
        .orderBy(asc(classes.nameKey), asc(classes.id))
        .offset(page.offset)
        .limit(page.limit + 1);
      return { items: rows.slice(0, page.limit).map(presentUntaughtClass), hasMore: rows.length > page.limit };
    },

    /**
     * The administrator gives a class no teacher teaches its owner, in one transaction that
     * holds the class's row: of two administrators assigning at once, the second finds it taught
     * and gets 409 CLASS_HAS_TEACHER (its teachers add co-teachers from then on).
     */
    async assignTeacher(classId: string, input: AssignClassTeacher): Promise<AssignedClass> {
      await db.transaction(async (tx) => {
        const [row] = await tx.select({ id: classes.id }).from(classes).where(eq(classes.id, classId)).for('update');
        if (!row) throw notFound('This class does not exist');
        const [taught] = await tx
          .select({ teacherId: classTeachers.teacherId })
          .from(classTeachers)
          .innerJoin(teachers, eq(teachers.id, classTeachers.teacherId))
          .where(and(eq(classTeachers.classId, classId), isNull(teachers.deactivatedAt)))
          .limit(1);
        if (taught) throw conflict('CLASS_HAS_TEACHER', 'This class has a teacher already: they can add co-teachers');
        const teacherId = await requireActiveTeacher(tx, input.teacherId);
        // Deactivated teachers stay on the class (reactivated, they teach it again), no longer its owner.
        await tx.update(classTeachers).set({ isOwner: false }).where(eq(classTeachers.classId, classId));
        await tx.insert(classTeachers).values({ classId, teacherId, isOwner: true });
      });
      const [assigned] = await presentClasses([classId]);
      return {
        _id: assigned!._id,
        name: assigned!.name,
        subject: assigned!.subject,
        isArchived: assigned!.isArchived,
        studentCount: assigned!.studentCount,
        teachers: assigned!.teachers,
      };
    },

    /** One student's entry of a class's roster (the caller has checked the class). */
    async rosterEntry(classId: string, studentId: string): Promise<RosterEntry> {
      const [entry] = await roster(classId, studentId);
      if (!entry) throw notFound('This student is not in the class');
      return entry;
    },

    async join(studentId: string, input: JoinClass): Promise<StudentClass[]> {
      await joinByCode(db, studentId, input.classCode);
      await membershipChanged(studentId);
      return studentClasses(studentId);
    },
  };
}

export type ClassesService = ReturnType<typeof createClassesService>;
