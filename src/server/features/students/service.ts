import { and, asc, eq, or, sql } from 'drizzle-orm';
import { identityKey } from '#shared/identity';
import type { ClassList, StudentListEntry, StudentListQuery } from '#shared/students';
import type { Database } from '../../db/client.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { quizzes, resources, students } from '../../db/schema.ts';
import { presentStudentListEntry } from './presenters.ts';

export type ListedStudents = { items: StudentListEntry[]; hasMore: boolean };

const listColumns = {
  id: students.id,
  name: students.name,
  rollNumber: students.rollNumber,
  email: students.email,
  className: students.className,
  parentName: students.parentName,
  parentEmail: students.parentEmail,
  averageScore: students.averageScore,
  averageAccuracy: students.averageAccuracy,
  quizzesAttempted: students.quizzesAttempted,
  createdAt: students.createdAt,
};

/** The teacher's students screen: every student of the school (one instance serves one school). */
export function createStudentsService(db: Database) {
  return {
    /** One page, by class (its key: every spelling together) then name then id: one query, filtered, sorted and paged in SQL. */
    async listStudents(query: StudentListQuery): Promise<ListedStudents> {
      const pattern = query.search === undefined ? undefined : containsPattern(query.search);
      const rows = await db
        .select(listColumns)
        .from(students)
        .where(
          and(
            query.class === undefined ? undefined : eq(students.classKey, identityKey(query.class)),
            pattern === undefined
              ? undefined
              : or(
                  sql`${students.name} ilike ${pattern} escape '\\'`,
                  sql`${students.rollNumber} ilike ${pattern} escape '\\'`,
                ),
          ),
        )
        .orderBy(asc(students.classKey), asc(students.name), asc(students.id))
        .limit(query.limit + 1)
        .offset(query.offset);
      return { items: rows.slice(0, query.limit).map(presentStudentListEntry), hasMore: rows.length > query.limit };
    },

    /**
     * Every class that has a student, a quiz or a resource, once however it is spelled (by
     * its key, decision 024), sorted: one query. The students' classes are read by skipping
     * through students_class_name_idx one class key at a time (a loose index scan), so the
     * cost follows the number of classes, not of students. A class shows its first spelling
     * in sort order; filtering by any spelling finds them all.
     */
    async listClasses(): Promise<ClassList> {
      const result = await db.execute(sql`
        with recursive student_classes (class_key) as (
          (select ${students.classKey} from ${students} order by ${students.classKey} limit 1)
          union all
          select (
            select ${students.classKey} from ${students}
            where ${students.classKey} > student_classes.class_key
            order by ${students.classKey} limit 1
          )
          from student_classes where student_classes.class_key is not null
        ),
        spellings (class_key, class_name) as (
          select class_key, (
            select ${students.className} from ${students}
            where ${students.classKey} = student_classes.class_key
            order by ${students.classKey}, ${students.name} limit 1
          )
          from student_classes where class_key is not null
          union all
          select ${quizzes.classKey}, ${quizzes.className} from ${quizzes}
          union all
          select ${resources.classKey}, ${resources.className} from ${resources}
        )
        select min(class_name) as class_name from spellings group by class_key order by 1`);
      return (result as { rows: { class_name: string }[] }).rows.map((row) => row.class_name);
    },
  };
}

export type StudentsService = ReturnType<typeof createStudentsService>;
