import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { assignmentClasses, assignments, classStudents, handIns, notifications } from '../../db/schema.ts';
import type { AccountRef } from '../../plugins/auth.ts';

/** How long before its due time an assignment not handed in is "due soon". */
export const DUE_SOON_HOURS = 24;

/**
 * ASSIGNMENT_DUE_SOON without a scheduler (decision 061): when a student's bell is read (the
 * count the open page polls, the list), one INSERT … SELECT makes the notification of each
 * published assignment of their classes due within DUE_SOON_HOURS and not handed in, once per
 * student and assignment (a unique partial index: two tabs polling at once make one). A
 * student who opens nothing for a day reads it when they next come: as a scheduler's would.
 */
export function createDueSoon(db: Database) {
  return async function materialiseDueSoon(recipient: AccountRef): Promise<void> {
    if (recipient.role !== 'student') return;
    const studentId = recipient.id;
    await db.execute(sql`
      insert into ${notifications} (recipient_role, recipient_id, kind, params, class_id)
      select distinct on (${assignments.id}) 'student', ${studentId}::uuid, 'ASSIGNMENT_DUE_SOON',
        jsonb_build_object(
          'assignmentId', ${assignments.id}::text,
          'title', ${assignments.title},
          'dueAt', to_char(${assignments.dueAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        ${assignmentClasses.classId}
      from ${assignmentClasses}
      join ${classStudents} on ${classStudents.classId} = ${assignmentClasses.classId}
        and ${classStudents.studentId} = ${studentId}
      join ${assignments} on ${assignments.id} = ${assignmentClasses.assignmentId}
      left join ${handIns} on ${handIns.assignmentId} = ${assignments.id} and ${handIns.studentId} = ${studentId}
      where ${assignments.archivedAt} is null
        and (${assignments.publishAt} is null or ${assignments.publishAt} <= now())
        and ${assignments.dueAt} > now()
        and ${assignments.dueAt} <= now() + make_interval(hours => ${DUE_SOON_HOURS})
        and (${handIns.state} is null or ${handIns.state} = 'draft')
        and not exists (select 1 from ${notifications} n
          where n.recipient_id = ${studentId} and n.kind = 'ASSIGNMENT_DUE_SOON'
            and n.params->>'assignmentId' = ${assignments.id}::text)
      order by ${assignments.id}, ${assignmentClasses.classId}
      on conflict do nothing`);
  };
}
