import { and, eq, sql } from 'drizzle-orm';
import { emailKey, identityKey } from '#shared/identity';
import type { AddClassStudent } from '#shared/classes';
import type {
  ChangePassword,
  ChooseLanguage,
  StudentLogin,
  StudentProfile,
  StudentRegistration,
  TeacherLogin,
  TeacherProfile,
  TeacherRegistration,
} from '#shared/accounts';
import type { Database } from '../../db/client.ts';
import { studentIdentityColumns, teacherIdentityColumns } from '../../db/identity-keys.ts';
import { insertUnique } from '../../db/unique-identities.ts';
import { classNamesOf, requireTaughtClass } from '../classes/records.ts';
import { requireClassOfJoinCode } from '../classes/service.ts';
import { classStudents, students, teachers } from '../../db/schema.ts';
import { accountRemoved, AppError, fieldProblem } from '../../errors.ts';
import {
  DEACTIVATED_MESSAGE,
  SIGNED_OUT_MESSAGE,
  type AccountRef,
  type AuthenticatedUser,
  type TokenService,
} from '../../plugins/auth.ts';
import { useInvitation } from '../school/service.ts';
import { hashPassword, spendPasswordCheckTime, verifyPassword } from './passwords.ts';
import { inPasswordWorkTurn } from '../../throttle/password-work.ts';
import { knownLocale, presentStudent, presentTeacher } from './presenters.ts';
import type { SessionVersions } from './session-versions.ts';

// One message for "no such account" and "wrong password": login must not
// reveal whether an account exists.
const TEACHER_LOGIN_FAILED = 'Email or password is incorrect';
const STUDENT_LOGIN_FAILED = 'Username or password is incorrect';
const WRONG_CURRENT_PASSWORD = 'Your current password is not correct';

const accountTable = (account: AccountRef) => (account.role === 'teacher' ? teachers : students);

export function createAccountsService(db: Database, tokens: TokenService, sessions: SessionVersions) {
  /**
   * Moves the account to a new session version, so every token issued before is refused
   * from the next request on (decision 017). Only from the caller's own version: a session
   * ended meanwhile (another device changed the password) changes nothing. Announced after
   * the commit, so every instance reads the new version before the caller hears back.
   */
  async function bumpSessionVersion(user: AuthenticatedUser, changes: { passwordHash?: string } = {}) {
    const table = accountTable(user);
    // A student's own new password ends a teacher's reset (decision 033).
    const ending = user.role === 'student' && changes.passwordHash !== undefined ? { mustChangePassword: false } : {};
    const [updated] = await db
      .update(table)
      .set({ ...changes, ...ending, sessionVersion: sql`${table.sessionVersion} + 1` })
      .where(and(eq(table.id, user.id), eq(table.sessionVersion, user.sessionVersion)))
      .returning({ sessionVersion: table.sessionVersion });
    if (!updated) throw new AppError('SIGNED_OUT', SIGNED_OUT_MESSAGE);
    await sessions.changed(user);
    return updated.sessionVersion;
  }

  /**
   * A student's account and its class membership, one transaction: `classOf` finds the class
   * (or refuses) inside it, so a refused class creates nothing.
   */
  async function createStudent(
    account: AddClassStudent,
    createdByTeacherId: string | null,
    classOf: (tx: Pick<Database, 'select' | 'insert'>) => Promise<{ id: string; name: string }>,
  ) {
    const passwordHash = await hashPassword(account.password);
    const [student] = await insertUnique(() =>
      db.transaction(async (tx) => {
        const target = await classOf(tx);
        const inserted = await tx
          .insert(students)
          .values({
            name: account.name,
            ...studentIdentityColumns(account),
            parentName: account.parentName,
            parentEmail: account.parentEmail,
            passwordHash,
            createdByTeacherId,
          })
          .returning();
        await tx.insert(classStudents).values({ classId: target.id, studentId: inserted[0]!.id });
        return inserted.map((row) => ({ row, className: target.name }));
      }),
    );
    // A new account is in the one class it was made into.
    return presentStudent(student!.row, student!.className);
  }

  return {
    /** Teachers join by invitation (decision 030): the account and the invitation's use are one transaction. */
    async registerTeacher(input: TeacherRegistration): Promise<TeacherProfile> {
      const passwordHash = await hashPassword(input.password);
      const teacher = await db.transaction(async (tx) => {
        const [created] = await insertUnique(() =>
          tx
            .insert(teachers)
            .values({ name: input.name, ...teacherIdentityColumns(input.email), subject: input.subject, passwordHash })
            .returning(),
        );
        await useInvitation(tx, input.invitation, created!.id);
        return created!;
      });
      return presentTeacher(teacher);
    },

    // The account's lookup waits for the password check's turn with it (decision 040): a burst's
    // lookups would otherwise all reach the database at once, ahead of everyone else's queries.
    loginTeacher: (input: TeacherLogin): Promise<string> =>
      inPasswordWorkTurn(async () => {
        const [teacher] = await db
          .select()
          .from(teachers)
          .where(eq(teachers.emailKey, emailKey(input.email)))
          .limit(1);
        if (!teacher) {
          await spendPasswordCheckTime(input.password);
          throw new AppError('WRONG_CREDENTIALS', TEACHER_LOGIN_FAILED);
        }
        if (!(await verifyPassword(teacher.passwordHash, input.password)))
          throw new AppError('WRONG_CREDENTIALS', TEACHER_LOGIN_FAILED);
        // Said only to whoever knows the password: it reveals nothing to a guesser.
        if (teacher.deactivatedAt) throw new AppError('ACCOUNT_DEACTIVATED', DEACTIVATED_MESSAGE);
        return tokens.issue({ id: teacher.id, role: 'teacher', sessionVersion: teacher.sessionVersion });
      }),

    /**
     * Self-registration (decision 031): into the class of the join code, checked in the
     * account's transaction, so a wrong, rotated, turned-off or archived-class code creates
     * nothing (400 CLASS_CODE_INVALID on the field).
     */
    async registerStudent(input: StudentRegistration): Promise<StudentProfile> {
      const { classCode, ...account } = input;
      return createStudent(account, null, (tx) => requireClassOfJoinCode(tx, classCode));
    },

    /**
     * A teacher adds a student straight into a class: an active class the teacher teaches
     * (404, 403, 409 CLASS_ARCHIVED), checked in the account's transaction.
     */
    async addStudentToClass(teacherId: string, classId: string, input: AddClassStudent) {
      // A token outliving its teacher's account would otherwise fail the insert's foreign key (a 500).
      const [teacher] = await db.select({ id: teachers.id }).from(teachers).where(eq(teachers.id, teacherId)).limit(1);
      if (!teacher) throw accountRemoved();
      return createStudent(input, teacherId, (tx) =>
        requireTaughtClass(tx, teacherId, classId, { mustBeActive: true }),
      );
    },

    loginStudent: (input: StudentLogin): Promise<string> =>
      inPasswordWorkTurn(async () => {
        const [student] = await db
          .select()
          .from(students)
          .where(eq(students.rollNumberKey, identityKey(input.rollNumber)))
          .limit(1);
        if (!student) {
          await spendPasswordCheckTime(input.password);
          throw new AppError('WRONG_CREDENTIALS', STUDENT_LOGIN_FAILED);
        }
        if (!(await verifyPassword(student.passwordHash, input.password)))
          throw new AppError('WRONG_CREDENTIALS', STUDENT_LOGIN_FAILED);
        return tokens.issue({
          id: student.id,
          role: 'student',
          sessionVersion: student.sessionVersion,
          // After a teacher's reset the session opens only the change of password (decision 033).
          mustChangePassword: student.mustChangePassword,
        });
      }),

    /**
     * A new password for the token's account, proven by the current one. Every other session
     * of the account ends; the returned token (issued under the new version) keeps this one.
     */
    async changePassword(user: AuthenticatedUser, input: ChangePassword): Promise<string> {
      const table = accountTable(user);
      const [account] = await db
        .select({ passwordHash: table.passwordHash, sessionVersion: table.sessionVersion })
        .from(table)
        .where(eq(table.id, user.id))
        .limit(1);
      if (!account) throw accountRemoved();
      // A reset (or a sign-out everywhere) that landed after this request's sign-in check has
      // ended the session: say so, rather than blame the current password it just replaced.
      if (account.sessionVersion !== user.sessionVersion) throw new AppError('SIGNED_OUT', SIGNED_OUT_MESSAGE);
      if (!(await verifyPassword(account.passwordHash, input.currentPassword))) {
        // Not 401: the session is fine, the proof is wrong (and a 401 would sign the form's page out).
        throw new AppError('WRONG_CURRENT_PASSWORD', WRONG_CURRENT_PASSWORD, {
          errors: fieldProblem('currentPassword', 'WRONG_CURRENT_PASSWORD', WRONG_CURRENT_PASSWORD),
        });
      }
      const passwordHash = await hashPassword(input.newPassword);
      const sessionVersion = await bumpSessionVersion(user, { passwordHash });
      return tokens.issue({ id: user.id, role: user.role, sessionVersion });
    },

    /** "Sign out of all devices": every token of the account so far, this one included, is refused from now on. */
    async signOutEverywhere(user: AuthenticatedUser): Promise<void> {
      await bumpSessionVersion(user);
    },

    /** Keeps the person's choice of language on their account, so it follows them to another device. */
    async chooseLanguage(user: AuthenticatedUser, input: ChooseLanguage): Promise<ChooseLanguage> {
      const table = accountTable(user);
      const [kept] = await db
        .update(table)
        .set({ locale: input.locale })
        .where(eq(table.id, user.id))
        .returning({ locale: table.locale });
      if (!kept) throw accountRemoved();
      return { locale: knownLocale(kept.locale) };
    },

    /** The token's teacher; a token for a deleted account is no longer a session. */
    async getTeacher(teacherId: string): Promise<TeacherProfile> {
      const [teacher] = await db.select().from(teachers).where(eq(teachers.id, teacherId)).limit(1);
      if (!teacher) throw accountRemoved();
      return presentTeacher(teacher);
    },

    async getStudent(studentId: string): Promise<StudentProfile> {
      const [found] = await db
        .select({ student: students, classNames: classNamesOf() })
        .from(students)
        .where(eq(students.id, studentId))
        .limit(1);
      if (!found) throw accountRemoved();
      return presentStudent(found.student, found.classNames);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
