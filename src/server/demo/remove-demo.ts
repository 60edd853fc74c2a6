import { and, count, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import { DEMO_TEACHER_EMAILS } from '#shared/demo';
import { emailKey, identityKey } from '#shared/identity';
import type { DemoRemoval } from '#shared/school';
import type { Database } from '../db/client.ts';
import {
  classes,
  classTeachers,
  notifications,
  quizAttempts,
  quizImages,
  quizzes,
  resources,
  schools,
  students,
  tasks,
  teacherInvitations,
  teachers,
} from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { cacheTags, readsUncached, type ReadCache } from '../cache/read-cache.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { DEMO_ROLL_NUMBERS } from './seed.ts';

/**
 * `npm run demo:remove` and the administrator's "Remove the demo" (decision 050). Demo rows
 * carry no mark: the demo is its fixed accounts (the two teachers by email, the sixteen
 * students by username), the classes its teachers own, and everything they made in them.
 * One transaction removes all of it, so a failure leaves the demo whole; the stored files go
 * after it has committed (a file left behind by a crash costs space, a row without its file
 * would be a broken link). Where nobody else is left the school row goes too: the server is
 * back at its first run, asking for its set-up code.
 */
export async function removeDemo(
  db: Database,
  storage: FileStorage,
  cache: ReadCache = readsUncached(),
): Promise<DemoRemoval> {
  const { summary, storageKeys, removedClassIds } = await db.transaction(async (tx) => {
    // Serialised with the administrators' changes (decision 030), which hold the same row.
    await tx.execute(sql`select ${schools.id} from ${schools} where ${schools.id} = 1 for update`);
    const demoTeacherIds = (
      await tx
        .select({ id: teachers.id })
        .from(teachers)
        .where(
          inArray(
            teachers.emailKey,
            DEMO_TEACHER_EMAILS.map((email) => emailKey(email)),
          ),
        )
    ).map((row) => row.id);
    const demoStudentIds = (
      await tx
        .select({ id: students.id })
        .from(students)
        .where(
          inArray(
            students.rollNumberKey,
            DEMO_ROLL_NUMBERS.map((rollNumber) => identityKey(rollNumber)),
          ),
        )
    ).map((row) => row.id);
    const demoClassIds =
      demoTeacherIds.length === 0
        ? []
        : (
            await tx
              .selectDistinct({ id: classTeachers.classId })
              .from(classTeachers)
              .where(and(eq(classTeachers.isOwner, true), inArray(classTeachers.teacherId, demoTeacherIds)))
          ).map((row) => row.id);
    const none = ['00000000-0000-0000-0000-000000000000'];
    const teacherIds = demoTeacherIds.length > 0 ? demoTeacherIds : none;
    const studentIds = demoStudentIds.length > 0 ? demoStudentIds : none;
    const classIds = demoClassIds.length > 0 ? demoClassIds : none;

    // Someone else's work in a demo class would go with the class: refused, nothing removed.
    const [othersQuizzes] = await tx
      .select({ count: count() })
      .from(quizzes)
      .where(and(inArray(quizzes.classId, classIds), notInArray(quizzes.createdByTeacherId, teacherIds)));
    const [othersResources] = await tx
      .select({ count: count() })
      .from(resources)
      .where(and(inArray(resources.classId, classIds), notInArray(resources.uploadedByTeacherId, teacherIds)));
    if (othersQuizzes!.count + othersResources!.count > 0) {
      throw new AppError(
        'DEMO_IN_USE',
        `Other teachers have ${othersQuizzes!.count} quizzes and ${othersResources!.count} resources in the demo's classes: move or delete them first. Nothing was removed.`,
      );
    }
    // The school keeps an active administrator when it keeps anyone (decision 030).
    const [othersLeft] = await tx.select({ count: count() }).from(teachers).where(notInArray(teachers.id, teacherIds));
    const [administratorsLeft] = await tx
      .select({ count: count() })
      .from(teachers)
      .where(
        and(notInArray(teachers.id, teacherIds), eq(teachers.isAdministrator, true), isNull(teachers.deactivatedAt)),
      );
    if (othersLeft!.count > 0 && administratorsLeft!.count === 0) {
      throw new AppError(
        'DEMO_IN_USE',
        'A demo teacher is the only administrator: make another teacher an administrator first. Nothing was removed.',
      );
    }

    const demoQuizzes = or(inArray(quizzes.createdByTeacherId, teacherIds), inArray(quizzes.classId, classIds));
    const demoResources = or(inArray(resources.uploadedByTeacherId, teacherIds), inArray(resources.classId, classIds));
    const storageKeys = [
      ...(
        await tx
          .select({ key: resources.storageKey })
          .from(resources)
          .where(and(demoResources, isNotNull(resources.storageKey)))
      ).map((row) => row.key!),
      ...(
        await tx
          .select({ key: quizImages.storageKey })
          .from(quizImages)
          .where(inArray(quizImages.uploadedByTeacherId, teacherIds))
      ).map((row) => row.key),
    ];
    const [attempts] = await tx
      .select({ count: count() })
      .from(quizAttempts)
      .where(
        or(
          inArray(quizAttempts.studentId, studentIds),
          inArray(quizAttempts.quizId, tx.select({ id: quizzes.id }).from(quizzes).where(demoQuizzes)),
        ),
      );

    // Attempts, marks, stars, memberships and rooms go with their quiz, student or class (cascades).
    const removedQuizzes = await tx.delete(quizzes).where(demoQuizzes).returning({ id: quizzes.id });
    const removedResources = await tx.delete(resources).where(demoResources).returning({ id: resources.id });
    await tx.delete(quizAttempts).where(inArray(quizAttempts.studentId, studentIds));
    await tx
      .delete(tasks)
      .where(
        or(
          and(eq(tasks.ownerRole, 'teacher'), inArray(tasks.ownerId, teacherIds)),
          and(eq(tasks.ownerRole, 'student'), inArray(tasks.ownerId, studentIds)),
        ),
      );
    await tx
      .delete(notifications)
      .where(
        or(
          and(eq(notifications.recipientRole, 'teacher'), inArray(notifications.recipientId, teacherIds)),
          and(eq(notifications.recipientRole, 'student'), inArray(notifications.recipientId, studentIds)),
        ),
      );
    // Invitations the demo's accounts used, and those they minted but nobody used yet: the demo's
    // password is public, so one minted through it must not let anyone register after the removal.
    await tx
      .delete(teacherInvitations)
      .where(
        or(
          inArray(teacherInvitations.usedByTeacherId, teacherIds),
          and(inArray(teacherInvitations.createdByTeacherId, teacherIds), isNull(teacherInvitations.usedAt)),
        ),
      );
    const removedStudents = await tx
      .delete(students)
      .where(inArray(students.id, studentIds))
      .returning({ id: students.id });
    const removedClasses = await tx.delete(classes).where(inArray(classes.id, classIds)).returning({ id: classes.id });
    const removedTeachers = await tx
      .delete(teachers)
      .where(inArray(teachers.id, teacherIds))
      .returning({ id: teachers.id });
    // Nobody left: the school was the demo's. The server asks for its set-up again.
    const schoolRemoved =
      othersLeft!.count === 0 && (await tx.delete(schools).returning({ id: schools.id })).length > 0;
    return {
      storageKeys,
      removedClassIds: removedClasses.map((row) => row.id),
      summary: {
        teachers: removedTeachers.length,
        students: removedStudents.length,
        classes: removedClasses.length,
        quizzes: removedQuizzes.length,
        attempts: attempts!.count,
        resources: removedResources.length,
        files: storageKeys.length,
        schoolRemoved,
      },
    };
  });
  // The running server's cached reads of what went (decision 015); a removed account's tokens
  // are refused already: the database announces the deletion (decision 017).
  await cache.changed([
    cacheTags.leaderboard,
    cacheTags.classMemberships,
    ...removedClassIds.flatMap((classId) => [cacheTags.classQuizzes(classId), cacheTags.classResources(classId)]),
  ]);
  // After the commit: a file that cannot be removed stays unreferenced (as after a crash here),
  // and must not turn the removal that happened into an error for the administrator.
  await Promise.allSettled(storageKeys.map((key) => storage.remove(key)));
  return summary;
}
