import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  Colleague,
  CreateInvitation,
  CreatedInvitation,
  Invitation,
  SchoolSetupDetails,
  SchoolStatus,
  StaffChange,
  StaffMember,
} from '#shared/school';
import { SCHOOL_LIMITS } from '#shared/school';
import { DEMO_TEACHER_EMAILS } from '#shared/demo';
import { emailKey } from '#shared/identity';
import { SOURCE_LOCALE, type Locale } from '#shared/locales';
import { UTC_ZONE } from '#shared/time-zones';
import type { Database } from '../../db/client.ts';
import { teacherIdentityColumns } from '../../db/identity-keys.ts';
import { schools, teacherInvitations, teachers, type TeacherInvitationRow } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import type { TokenService } from '../../plugins/auth.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { knownLocale } from '../accounts/presenters.ts';
import { insertUnique } from '../../db/unique-identities.ts';
import type { SessionVersions } from '../accounts/session-versions.ts';
import { invitationState, presentColleague, presentInvitation, presentStaffMember } from './presenters.ts';
import { byName } from '../../db/name-order.ts';

/** Anything that can run queries: the database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

type Page = { offset: number; limit: number };
type ListedPage<T> = { items: T[]; hasMore: boolean };

const INVITATION_LIFETIME = sql.raw(`interval '${SCHOOL_LIMITS.invitationDays} days'`);

/** The code of a link: 24 random bytes, 32 characters of base64url. Only its hash is stored. */
const newInvitationCode = () => randomBytes(24).toString('base64url');
const hashOfCode = (code: string) => createHash('sha256').update(code).digest('hex');

const UNUSABLE_INVITATION = {
  used: new AppError('INVITATION_USED', 'This invitation has been used already. Ask for a new one.'),
  expired: new AppError('INVITATION_EXPIRED', 'This invitation has expired. Ask for a new one.'),
  revoked: new AppError('INVITATION_REVOKED', 'This invitation has been withdrawn. Ask for a new one.'),
} as const;

const invitationNotFound = () =>
  new AppError('INVITATION_NOT_FOUND', 'No invitation has this code. Open the link exactly as you were given it.');

/** An invitation that can be used now, or the refusal that says why not. */
async function usableInvitation(db: Queryable, code: string): Promise<TeacherInvitationRow> {
  const [invitation] = await db
    .select()
    .from(teacherInvitations)
    .where(eq(teacherInvitations.codeHash, hashOfCode(code)))
    .limit(1);
  if (!invitation) throw invitationNotFound();
  const state = invitationState(invitation, new Date());
  if (state !== 'pending') throw UNUSABLE_INVITATION[state];
  return invitation;
}

/**
 * Uses up an invitation for the teacher who registers with it, inside their registration's
 * transaction: one conditional update, so two registrations with one link cannot both succeed.
 */
export async function useInvitation(tx: Queryable, code: string, teacherId: string): Promise<void> {
  const [used] = await tx
    .update(teacherInvitations)
    .set({ usedAt: sql`now()`, usedByTeacherId: teacherId })
    .where(
      and(
        eq(teacherInvitations.codeHash, hashOfCode(code)),
        isNull(teacherInvitations.usedAt),
        isNull(teacherInvitations.revokedAt),
        gt(teacherInvitations.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: teacherInvitations.id });
  if (!used) await usableInvitation(tx, code); // throws the reason
  if (!used) throw invitationNotFound(); // a state that changed between the two reads
}

export const schoolAlreadySetUp = () =>
  new AppError('SCHOOL_ALREADY_SET_UP', 'This school has been set up already. Log in instead.');

/** The demo is there while one of its teachers is (decision 050). */
const DEMO_TEACHER_KEYS = DEMO_TEACHER_EMAILS.map((email) => emailKey(email));

export function createSchoolService(
  db: Database,
  tokens: TokenService,
  sessions: SessionVersions,
  /** Told after the school's default language may have changed (set-up, the Staff screen). */
  { onLocaleChange = () => {} }: { onLocaleChange?: () => void } = {},
) {
  const usedBy = alias(teachers, 'used_by');

  async function readSchool(): Promise<SchoolStatus> {
    const [[school], [demoTeacher]] = await Promise.all([
      db
        .select({ name: schools.name, defaultLocale: schools.defaultLocale, timeZone: schools.timeZone })
        .from(schools)
        .limit(1),
      db.select({ id: teachers.id }).from(teachers).where(inArray(teachers.emailKey, DEMO_TEACHER_KEYS)).limit(1),
    ]);
    return {
      isSetUp: school !== undefined,
      name: school?.name ?? null,
      hasDemo: demoTeacher !== undefined,
      defaultLocale: knownLocale(school?.defaultLocale ?? null) ?? SOURCE_LOCALE,
      timeZone: school?.timeZone ?? UTC_ZONE,
    };
  }

  async function readInvitation(id: string): Promise<Invitation | undefined> {
    const [row] = await db
      .select({ invitation: teacherInvitations, usedBy: { id: usedBy.id, name: usedBy.name } })
      .from(teacherInvitations)
      .leftJoin(usedBy, eq(usedBy.id, teacherInvitations.usedByTeacherId))
      .where(eq(teacherInvitations.id, id))
      .limit(1);
    return row && presentInvitation(row.invitation, row.usedBy, new Date());
  }

  return {
    status: readSchool,

    /** True while the teacher administers the school and is active: the administrator's routes ask it per call. */
    async isAdministrator(teacherId: string): Promise<boolean> {
      const [teacher] = await db
        .select({ id: teachers.id })
        .from(teachers)
        .where(and(eq(teachers.id, teacherId), eq(teachers.isAdministrator, true), isNull(teachers.deactivatedAt)))
        .limit(1);
      return teacher !== undefined;
    },

    /**
     * The first run: the school and its first teacher, its administrator, in one transaction.
     * The school's single row (id 1) makes a second setup, even a concurrent one, a 409.
     */
    async setUp(input: SchoolSetupDetails): Promise<string> {
      const passwordHash = await hashPassword(input.password);
      const teacher = await db.transaction(async (tx) => {
        const [school] = await tx
          .insert(schools)
          .values({
            id: 1,
            name: input.schoolName,
            defaultLocale: input.defaultLocale ?? SOURCE_LOCALE,
            timeZone: input.timeZone ?? UTC_ZONE,
          })
          .onConflictDoNothing()
          .returning({ id: schools.id });
        if (!school) throw schoolAlreadySetUp();
        const [created] = await insertUnique(() =>
          tx
            .insert(teachers)
            .values({
              name: input.name,
              ...teacherIdentityColumns(input.email),
              subject: input.subject,
              passwordHash,
              isAdministrator: true,
            })
            .returning({ id: teachers.id, sessionVersion: teachers.sessionVersion }),
        );
        return created!;
      });
      onLocaleChange();
      return tokens.issue({ id: teacher.id, role: 'teacher', sessionVersion: teacher.sessionVersion });
    },

    async rename(name: string): Promise<SchoolStatus> {
      await db.update(schools).set({ name }).where(eq(schools.id, 1));
      return readSchool();
    },

    async setDefaultLocale(defaultLocale: Locale): Promise<SchoolStatus> {
      await db.update(schools).set({ defaultLocale }).where(eq(schools.id, 1));
      onLocaleChange();
      return readSchool();
    },

    async setTimeZone(timeZone: string): Promise<SchoolStatus> {
      await db.update(schools).set({ timeZone }).where(eq(schools.id, 1));
      return readSchool();
    },

    /** What the registration screen shows before the form is sent; refuses an unusable code with its reason. */
    async checkInvitation(code: string) {
      const invitation = await usableInvitation(db, code);
      const school = await readSchool();
      return { schoolName: school.name ?? '', expiresAt: invitation.expiresAt.toISOString() };
    },

    async createInvitation(input: CreateInvitation, createdByTeacherId: string | null): Promise<CreatedInvitation> {
      const code = newInvitationCode();
      const [created] = await db
        .insert(teacherInvitations)
        .values({
          codeHash: hashOfCode(code),
          note: input.note ?? '',
          createdByTeacherId,
          expiresAt: sql`now() + ${INVITATION_LIFETIME}`,
        })
        .returning();
      return { invitation: presentInvitation(created!, null, new Date()), code };
    },

    async listInvitations(page: Page): Promise<ListedPage<Invitation>> {
      const rows = await db
        .select({ invitation: teacherInvitations, usedBy: { id: usedBy.id, name: usedBy.name } })
        .from(teacherInvitations)
        .leftJoin(usedBy, eq(usedBy.id, teacherInvitations.usedByTeacherId))
        .orderBy(desc(teacherInvitations.createdAt), desc(teacherInvitations.id))
        .offset(page.offset)
        .limit(page.limit + 1);
      const now = new Date();
      return {
        items: rows.slice(0, page.limit).map((row) => presentInvitation(row.invitation, row.usedBy, now)),
        hasMore: rows.length > page.limit,
      };
    },

    /** Revokes an unused invitation; revoking it again changes nothing; a used one cannot be revoked. */
    async revokeInvitation(id: string): Promise<Invitation> {
      await db
        .update(teacherInvitations)
        .set({ revokedAt: sql`now()` })
        .where(
          and(eq(teacherInvitations.id, id), isNull(teacherInvitations.usedAt), isNull(teacherInvitations.revokedAt)),
        );
      const invitation = await readInvitation(id);
      if (!invitation) throw notFound('This invitation does not exist');
      if (invitation.state === 'used') throw UNUSABLE_INVITATION.used;
      return invitation;
    },

    async listStaff(page: Page): Promise<ListedPage<StaffMember>> {
      const rows = await db
        .select()
        .from(teachers)
        .orderBy(asc(byName(teachers.name)), asc(teachers.id))
        .offset(page.offset)
        .limit(page.limit + 1);
      return { items: rows.slice(0, page.limit).map(presentStaffMember), hasMore: rows.length > page.limit };
    },

    /**
     * The active teachers by name, names only. Not paged: a picker needs them all, and a
     * school's staff is a few hundred names at most.
     */
    async listColleagues(): Promise<Colleague[]> {
      const rows = await db
        .select({ id: teachers.id, name: teachers.name })
        .from(teachers)
        .where(isNull(teachers.deactivatedAt))
        .orderBy(asc(byName(teachers.name)), asc(teachers.id));
      return rows.map(presentColleague);
    },

    /**
     * One of the administrator's changes to a teacher, in one transaction that holds the
     * school's row: two administrators demoting or deactivating each other at once are
     * serialised, so the school always keeps an active administrator. Deactivating and
     * reactivating move the session version: every token of the account is refused from the
     * next request on, on every instance (the database announces it, decision 017).
     */
    async changeStaff(change: StaffChange, teacherId: string): Promise<StaffMember> {
      const changed = await db.transaction(async (tx) => {
        await tx.execute(sql`select ${schools.id} from ${schools} where ${schools.id} = 1 for update`);
        const [teacher] = await tx.select().from(teachers).where(eq(teachers.id, teacherId)).for('update').limit(1);
        if (!teacher) throw notFound('This teacher does not exist');
        const isActiveAdministrator = teacher.isAdministrator && teacher.deactivatedAt === null;
        if (isActiveAdministrator && (change === 'deactivate' || change === 'remove-administrator')) {
          const [other] = await tx
            .select({ id: teachers.id })
            .from(teachers)
            .where(and(eq(teachers.isAdministrator, true), isNull(teachers.deactivatedAt), ne(teachers.id, teacherId)))
            .limit(1);
          if (!other) {
            throw new AppError(
              'LAST_ADMINISTRATOR',
              'The school needs an active administrator: make another teacher an administrator first.',
            );
          }
        }
        const nextSession = { sessionVersion: sql`${teachers.sessionVersion} + 1` };
        const changes = {
          deactivate: teacher.deactivatedAt ? {} : { deactivatedAt: sql`now()`, ...nextSession },
          reactivate: teacher.deactivatedAt ? { deactivatedAt: null, ...nextSession } : {},
          'make-administrator': { isAdministrator: true },
          'remove-administrator': { isAdministrator: false },
        }[change];
        if (Object.keys(changes).length === 0) return teacher;
        const [updated] = await tx.update(teachers).set(changes).where(eq(teachers.id, teacherId)).returning();
        return updated!;
      });
      if (change === 'deactivate' || change === 'reactivate')
        await sessions.changed({ role: 'teacher', id: teacherId });
      return presentStaffMember(changed);
    },
  };
}

export type SchoolService = ReturnType<typeof createSchoolService>;
