import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { assignments, resources } from '../db/schema.ts';
import { createAssignmentAuthoring } from '../features/assignments/authoring.ts';
import { createHandIns } from '../features/assignments/hand-ins.ts';

/**
 * The demo school's assignments (issue 33 point 7): one of each state a visitor should see at once (the
 * demo student, index 0 of 10A, has one in each of the four groups: to do, missing, done, returned) —
 * work to do with a PDF from the library, work past due with hand-ins on time, late, missing, graded (not yet
 * returned), returned and returned with a changed grade, an ungraded reflection returned with feedback, and one
 * scheduled to appear next week. Through the same services as the API; idempotent by title.
 */

type DemoStudent = { id: string; className: string; index: number };

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const HAND_IN_TEXTS = [
  'I measured the plant every morning. It grew 2 cm in the first week and 3.5 cm in the second; the one by the window grew fastest.',
  'Our plant grew slowly at first. After we moved it to the light it grew about half a centimetre a day.',
  'Days 1–7: 1.5 cm. Days 8–14: 2.8 cm. The plant without water stopped growing after day 9.',
  'Light and water both matter, but light mattered more: the plant in the cupboard was pale and thin.',
];

export async function seedAssignments(
  db: Database,
  teacherId: string,
  classIds: Map<string, string>,
  students: readonly DemoStudent[],
): Promise<number> {
  // The seed's answers are never shown to anyone: no attachment address is signed.
  const unsigned = () => () => '';
  const authoring = createAssignmentAuthoring(db, unsigned);
  const handIns = createHandIns(db, unsigned);
  const allClassIds = [...classIds.values()];
  const existingTitles = new Set(
    (
      await db
        .select({ title: assignments.title })
        .from(assignments)
        .where(eq(assignments.createdByTeacherId, teacherId))
    ).map((row) => row.title),
  );
  const [cheatSheet] = await db
    .select({ id: resources.id })
    .from(resources)
    .where(
      and(
        eq(resources.uploadedByTeacherId, teacherId),
        eq(resources.fileName, 'Fractions cheat sheet.pdf'),
        inArray(resources.classId, allClassIds),
      ),
    )
    .limit(1);
  let created = 0;

  // To do: due in five days, with the library's PDF.
  const worksheetTitle = 'Fractions worksheet';
  if (!existingTitles.has(worksheetTitle)) {
    const worksheet = await authoring.create(teacherId, {
      classIds: allClassIds,
      title: worksheetTitle,
      instructions:
        'Answer **questions 1–10** of the attached cheat sheet’s practice.\n\n- Show your working.\n- Simplify every answer.',
      points: 20,
      dueAt: inDays(5),
      acceptLate: true,
      publishAt: null,
      attachments: cheatSheet ? [cheatSheet.id] : [],
    });
    // Two students have started: a saved draft each (still "to do" for them).
    for (const student of students.filter((candidate) => candidate.index < 2)) {
      await handIns.saveDraft(student.id, worksheet._id, { text: 'Question 1: 3/4. Question 2: 5/6.', version: 0 });
    }
    created += 1;
  }

  // Past due: handed in on time (graded, returned, one regraded after return), late, and missing.
  const labTitle = 'Lab report: how fast does a plant grow?';
  if (!existingTitles.has(labTitle)) {
    const lab = await authoring.create(teacherId, {
      classIds: allClassIds,
      title: labTitle,
      instructions: 'Write up your two weeks of measurements: what you changed, what you measured, what you found.',
      points: 10,
      dueAt: inDays(1),
      acceptLate: true,
      publishAt: null,
      attachments: [],
    });
    for (const student of students) {
      const plan = student.index % 4;
      if (plan === 3) continue; // never handed in: missing once the due time passes
      const text = HAND_IN_TEXTS[student.index % HAND_IN_TEXTS.length]!;
      // plan 2 hands in after the due time, below; the others before it.
      if (plan === 2) continue;
      const handedIn = await handIns.handIn(student.id, lab._id, { text, version: 0 });
      // Graded, not yet returned: the teacher's "graded" state (the student still sees it handed in).
      if (plan === 1 && student.index === 1)
        await handIns.grade(teacherId, lab._id, student.id, {
          points: 8,
          feedback: 'Careful measurements. I will return it with the others on Monday.',
          version: handedIn.handIn!.version,
        });
      if (plan === 0) {
        const points = 6 + (student.index % 5);
        await handIns.grade(teacherId, lab._id, student.id, {
          points,
          feedback: points >= 9 ? 'Clear method and careful measurements.' : 'Good start: add a table of your data.',
          version: handedIn.handIn!.version,
        });
        await handIns.returnOne(teacherId, lab._id, student.id);
        // One returned grade changed afterwards (the student sees that it changed).
        if (student.index === 0)
          await handIns.grade(teacherId, lab._id, student.id, {
            points: Math.min(10, points + 1),
            feedback: 'Regraded: your second table was on the back page. Well done.',
            version: (await handIns.getForTeacher(teacherId, lab._id, student.id)).version,
          });
      }
    }
    // The due time moves into the past; the remaining plan-2 students then hand in late.
    await db
      .update(assignments)
      .set({ dueAt: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(assignments.id, lab._id));
    for (const student of students.filter((candidate) => candidate.index % 4 === 2)) {
      await handIns.handIn(student.id, lab._id, {
        text: HAND_IN_TEXTS[student.index % HAND_IN_TEXTS.length]!,
        version: 0,
      });
    }
    created += 1;
  }

  // Ungraded: feedback only, returned.
  const reflectionTitle = 'Reading reflection: a page on a scientist you admire';
  if (!existingTitles.has(reflectionTitle)) {
    const reflection = await authoring.create(teacherId, {
      classIds: allClassIds,
      title: reflectionTitle,
      instructions: 'One page, in your own words. Not graded: I will write back to each of you.',
      points: null,
      dueAt: null,
      acceptLate: true,
      publishAt: null,
      attachments: [],
    });
    for (const student of students.filter((candidate) => candidate.index % 2 === 0)) {
      const handedIn = await handIns.handIn(student.id, reflection._id, {
        text: 'I chose Marie Curie, because she kept going when nobody believed her results.',
        version: 0,
      });
      // The demo student's stays handed in, not yet read: their "done" group.
      if (student.index === 0) continue;
      await handIns.grade(teacherId, reflection._id, student.id, {
        points: null,
        feedback: 'A thoughtful choice — read about her notebooks, they are still radioactive.',
        version: handedIn.handIn!.version,
      });
    }
    await handIns.returnAll(teacherId, reflection._id, undefined);
    created += 1;
  }

  // Missing for the demo student: past due, late work refused; half the class handed in on time.
  const diagramTitle = 'Homework: label the water cycle';
  if (!existingTitles.has(diagramTitle)) {
    const diagram = await authoring.create(teacherId, {
      classIds: allClassIds,
      title: diagramTitle,
      instructions: 'Name the four stages and one place where each happens near school.',
      points: 5,
      dueAt: inDays(1),
      acceptLate: false,
      publishAt: null,
      attachments: [],
    });
    for (const student of students.filter((candidate) => candidate.index % 2 === 1)) {
      await handIns.handIn(student.id, diagram._id, {
        text: 'Evaporation (the sea), condensation (clouds), precipitation (rain), collection (the river).',
        version: 0,
      });
    }
    await db
      .update(assignments)
      .set({ dueAt: new Date(Date.now() - 3 * DAY_MS) })
      .where(eq(assignments.id, diagram._id));
    created += 1;
  }

  // Scheduled: students see it next week.
  const projectTitle = 'Project: design a fair test';
  if (!existingTitles.has(projectTitle)) {
    await authoring.create(teacherId, {
      classIds: allClassIds,
      title: projectTitle,
      instructions: 'Plan an experiment that changes one thing at a time. Details when it opens.',
      points: 30,
      dueAt: inDays(21),
      acceptLate: false,
      publishAt: inDays(7),
      attachments: [],
    });
    created += 1;
  }
  return created;
}
