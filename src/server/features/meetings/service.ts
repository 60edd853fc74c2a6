import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import {
  GENERATED_ROOM_ID,
  MEETING_LIMITS,
  type IceServer,
  type MeetingRoom,
  type MeetingTicket,
} from '#shared/meetings';
import type { Database } from '../../db/client.ts';
import { classes, classTeachers, meetingRooms, students, teachers } from '../../db/schema.ts';
import { accountRemoved, AppError, forbidden, notFound } from '../../errors.ts';
import type { AuthenticatedUser } from '../../plugins/auth.ts';
import { inStudentClasses, requireTaughtClass } from '../classes/records.ts';
import type { MeetingTokens } from './meeting-tokens.ts';

/** `column` (a class id) is one of the caller's classes: taught by a teacher, belonged to by a student. */
function inCallerClasses(column: SQLWrapper, user: AuthenticatedUser) {
  if (user.role === 'student') return inStudentClasses(column, user.id);
  return sql`${column} in (select ${classTeachers.classId} from ${classTeachers} where ${classTeachers.teacherId} = ${user.id})`;
}

/**
 * A room belongs to a class (decision 035): a teacher of an active class opens one, and only
 * the teachers and students of that class get a meeting token for it. The generated ID is
 * still hard to guess, but knowing it is no longer enough. Nothing of a meeting is stored.
 */
export function createMeetingsService(
  db: Database,
  tokens: MeetingTokens,
  settings: { iceServers: IceServer[]; roomSize: number },
) {
  /** The display name others will see: read now, from the account, never from the request. */
  async function displayName(user: AuthenticatedUser): Promise<string> {
    const table = user.role === 'teacher' ? teachers : students;
    const [account] = await db.select({ name: table.name }).from(table).where(eq(table.id, user.id)).limit(1);
    if (!account) throw accountRemoved();
    return account.name;
  }

  /** The rooms of the caller's active classes, newest first: one statement, on meeting_rooms_class_created_idx. */
  function roomsQuery(user: AuthenticatedUser) {
    return db
      .select({
        roomId: meetingRooms.id,
        createdAt: meetingRooms.createdAt,
        classId: classes.id,
        className: classes.name,
        teacherId: teachers.id,
        teacherName: teachers.name,
      })
      .from(meetingRooms)
      .innerJoin(classes, eq(classes.id, meetingRooms.classId))
      .leftJoin(teachers, eq(teachers.id, meetingRooms.createdByTeacherId))
      .where(and(isNull(classes.archivedAt), inCallerClasses(meetingRooms.classId, user)))
      .orderBy(desc(meetingRooms.createdAt), desc(meetingRooms.id));
  }

  /** The room if the caller may join it: 404 for no such room, 403 outside its class, 409 when archived. */
  async function requireJoinableRoom(user: AuthenticatedUser, roomId: string) {
    const [room] = await db
      .select({
        archivedAt: classes.archivedAt,
        isMember: sql<boolean>`${inCallerClasses(meetingRooms.classId, user)}`.mapWith(Boolean),
      })
      .from(meetingRooms)
      .innerJoin(classes, eq(classes.id, meetingRooms.classId))
      .where(eq(meetingRooms.id, roomId))
      .limit(1);
    if (!room) throw notFound('No meeting room has this ID. Check it, or ask your teacher for the link');
    if (!room.isMember) throw forbidden('This meeting room belongs to a class you are not in');
    if (room.archivedAt !== null) throw new AppError('CLASS_ARCHIVED', "This room's class is archived");
  }

  return {
    /** A new room of an active class the teacher teaches (checked and written in one transaction). */
    async createRoom(teacher: AuthenticatedUser, classId: string): Promise<MeetingRoom> {
      return db.transaction(async (tx) => {
        const taught = await requireTaughtClass(tx, teacher.id, classId, { mustBeActive: true, forUpdate: true });
        const [created] = await tx
          .insert(meetingRooms)
          .values({ id: newRoomId(), classId: taught.id, createdByTeacherId: teacher.id })
          .returning({ roomId: meetingRooms.id, createdAt: meetingRooms.createdAt });
        const [creator] = await tx
          .select({ _id: teachers.id, name: teachers.name })
          .from(teachers)
          .where(eq(teachers.id, teacher.id));
        return {
          roomId: created!.roomId,
          class: { _id: taught.id, name: taught.name },
          createdBy: creator ?? null,
          createdAt: created!.createdAt.toISOString(),
        };
      });
    },

    async listRooms(user: AuthenticatedUser): Promise<MeetingRoom[]> {
      const rows = await roomsQuery(user).limit(MEETING_LIMITS.listedRooms);
      return rows.map((row) => ({
        roomId: row.roomId,
        class: { _id: row.classId, name: row.className },
        createdBy: row.teacherId === null ? null : { _id: row.teacherId, name: row.teacherName! },
        createdAt: row.createdAt.toISOString(),
      }));
    },

    /** A meeting token for this user and a room of their class, with what the screen needs to connect. */
    async issueTicket(user: AuthenticatedUser, roomId: string): Promise<MeetingTicket> {
      await requireJoinableRoom(user, roomId);
      const name = await displayName(user);
      const { token, expiresAt } = await tokens.issue({
        sub: user.id,
        role: user.role,
        name,
        room: roomId,
        sv: user.sessionVersion,
        // Past requireJoinableRoom a teacher teaches the room's class (owner or co-teacher): a host.
        host: user.role === 'teacher',
      });
      return {
        roomId,
        token,
        expiresAt: expiresAt.toISOString(),
        iceServers: settings.iceServers,
        roomSize: settings.roomSize,
      };
    },
  };
}

export type MeetingsService = ReturnType<typeof createMeetingsService>;

/** "k3vq-8d2m-…": groups of the alphabet, drawn without bias (rejection of the top bytes). */
export function newRoomId(): string {
  const { alphabet, groups, groupLength } = GENERATED_ROOM_ID;
  const wanted = groups * groupLength;
  const ceiling = 256 - (256 % alphabet.length);
  const characters: string[] = [];
  while (characters.length < wanted) {
    for (const byte of randomBytes(wanted * 2)) {
      if (byte < ceiling && characters.length < wanted) characters.push(alphabet[byte % alphabet.length]!);
    }
  }
  return Array.from({ length: groups }, (_, group) =>
    characters.slice(group * groupLength, (group + 1) * groupLength).join(''),
  ).join('-');
}
