import { and, asc, eq, or, sql } from 'drizzle-orm';
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
    /** One page, by class then name then id: one query, filtered, sorted and paged in SQL. */
    async listStudents(query: StudentListQuery): Promise<ListedStudents> {
      const pattern = query.search === undefined ? undefined : containsPattern(query.search);
      const rows = await db
        .select(listColumns)
        .from(students)
        .where(
          and(
            query.class === undefined ? undefined : eq(students.className, query.class),
            pattern === undefined
              ? undefined
              : or(
                  sql`${students.name} ilike ${pattern} escape '\\'`,
                  sql`${students.rollNumber} ilike ${pattern} escape '\\'`,
                ),
          ),
        )
        .orderBy(asc(students.className), asc(students.name), asc(students.id))
        .limit(query.limit + 1)
        .offset(query.offset);
      return { items: rows.slice(0, query.limit).map(presentStudentListEntry), hasMore: rows.length > query.limit };
    },

    /**
     * Every class that has a student, a quiz or a resource, sorted: one query. The students' classes are
     * read by skipping through students_class_name_idx one class at a time (a loose index
     * scan), so the cost follows the number of classes, not of students.
     */
    async listClasses(): Promise<ClassList> {
      const result = await db.execute(sql`
        with recursive student_classes (class_name) as (
          (select ${students.className} from ${students} order by ${students.className} limit 1)
          union all
          select (
            select ${students.className} from ${students}
            where ${students.className} > student_classes.class_name
            order by ${students.className} limit 1
          )
          from student_classes where student_classes.class_name is not null
        )
        select class_name from student_classes where class_name is not null
        union
        select ${quizzes.className} from ${quizzes}
        union
        select ${resources.className} from ${resources}
        order by 1`);
      return (result as unknown as { rows: { class_name: string }[] }).rows.map((row) => row.class_name);
    },
  };
}

export type StudentsService = ReturnType<typeof createStudentsService>;
