import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { identityKey } from '#shared/identity';
import { QUIZ_BACKGROUNDS, questionInputSchema } from '#shared/quizzes';
import { totalPointsOf } from '#shared/question-scoring';
import { toStoredQuestions, type ChoiceQuestion } from '#shared/question-types';
import type { Database } from '#server/db/client';
import { studentIdentityColumns, teacherIdentityColumns } from '#server/db/identity-keys';
import {
  classes as classTable,
  classStudents,
  classTeachers,
  quizAttempts,
  quizzes,
  resources,
  resourceStars,
  students,
  teachers,
  type StoredQuestion,
} from '#server/db/schema';
import { hashPassword } from '#server/features/accounts/passwords';
import { closeAttempt, newOpaqueIds, shuffleLayout } from '#server/features/quizzes/attempt-rules';
import { seededRandom } from '#server/testing/seeded-random';
import { buildNewQuiz, buildStudentRegistration, buildTeacherAccount } from '#server/testing/factories';
import { closesWithoutAccommodations } from '#server/features/quizzes/review-rules';

/**
 * A large school written straight into the database (the API would spend an argon2 hash on
 * every account: hours for 100,000 students). Shapes come from the shared factories and the
 * real attempt rules (layout shuffle, scoring); every account shares one precomputed hash of
 * BENCH_PASSWORD, so any of them can log in through the real endpoint. Rows go in multi-row
 * INSERTs of SEED_BATCH rows, several batches per transaction. Deterministic apart from ids.
 */

export const BENCH_PASSWORD = 'bench-password-not-secret';

export type SchoolPlan = {
  /** Every student of the school: 100,000 for the leaderboard budget. */
  students: number;
  classSize: number;
  teachers: number;
  /** Per ordinary class: finished quizzes behind the leaderboard's averages. */
  pastQuizzesPerClass: number;
  /** The quiz-list class: quizzes it can see, and how many of them its students submitted. */
  listQuizzes: number;
  listQuizzesAttempted: number;
  /** The library class's resources, and how many of them its student starred. */
  resources: number;
  starred: number;
};

export const FULL_PLAN: SchoolPlan = {
  students: 100_000,
  classSize: 100,
  teachers: 20,
  pastQuizzesPerClass: 3,
  listQuizzes: 500,
  listQuizzesAttempted: 100,
  resources: 10_000,
  starred: 200,
};

export const QUICK_PLAN: SchoolPlan = {
  students: 2_000,
  classSize: 100,
  teachers: 5,
  pastQuizzesPerClass: 2,
  listQuizzes: 50,
  listQuizzesAttempted: 10,
  resources: 500,
  starred: 20,
};

export type SeededSchool = {
  plan: SchoolPlan;
  classes: string[];
  /** Logs in with BENCH_PASSWORD; owns a share of the library's resources. */
  teacherEmail: string;
  /** The id of a class (the bench's teacher teaches every class). */
  classIdOf(className: string): string;
  /** Roll numbers of class `classes[i]`'s students, in order (exam rush takes them class by class). */
  rollNumbersOf(className: string): string[];
  /** Sees plan.listQuizzes quizzes and plan.resources resources. */
  listClass: string;
  listStudent: string;
  /** An ordinary class and one of its students (class leaderboard). */
  leaderboardStudent: string;
  /** A surname, so it matches about 1 name in 40. */
  leaderboardSearch: string;
  /** A word of about 1 resource in 100, in its name or description. */
  resourceSearch: string;
  counts: Record<string, number>;
  seconds: number;
};

const SEED_BATCH = 1000;
const BATCHES_PER_TRANSACTION = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

const FIRST_NAMES = [
  'Aisha', 'Lucas', 'Mei', 'Tomás', 'Grace', 'Noah', 'Priya', 'Elias', 'Sofia', 'Kwame',
  'Hannah', 'Yuki', 'Omar', 'Chloé', 'Leon', 'Amara', 'Ivan', 'Fatima', 'Mateo', 'Zara',
  'Oliver', 'Ines', 'Ravi', 'Freya', 'Jonas', 'Leila', 'Diego', 'Anya', 'Samuel', 'Nora',
  'Kenji', 'Lina', 'Felix', 'Maya', 'Tariq', 'Elif', 'Hugo', 'Sara', 'Emeka', 'Clara',
]; // prettier-ignore
const LAST_NAMES = [
  'Khan', 'Martin', 'Chen', 'García', 'Okafor', 'Schmidt', 'Nair', 'Berg', 'Rossi', 'Mensah',
  'Cohen', 'Tanaka', 'Haddad', 'Dubois', 'Novak', 'Diallo', 'Petrov', 'Silva', 'Jensen', 'Kowalski',
  'Murphy', 'Ahmed', 'Rahman', 'Lindqvist', 'Moreau', 'Yilmaz', 'Costa', 'Ivanova', 'Mwangi', 'Singh',
  'Fischer', 'Laurent', 'Park', 'Nguyen', 'Ortiz', 'Hughes', 'Bakker', 'Eriksen', 'Adeyemi', 'Varga',
]; // prettier-ignore
const SUBJECTS = ['Mathematics', 'Physics', 'Biology', 'History', 'Geography', 'Chemistry', 'English', 'Art'];
const TOPICS = [
  'algebra', 'fractions', 'geometry', 'probability', 'vectors', 'circuits', 'optics', 'cells',
  'genetics', 'ecosystems', 'revolutions', 'empires', 'rivers', 'climate', 'atoms', 'reactions',
  'poetry', 'grammar', 'perspective', 'colour', 'statistics', 'forces', 'waves', 'evolution',
]; // prettier-ignore
const KINDS = [
  { word: 'worksheet', mimeType: 'application/pdf', extension: 'pdf' },
  { word: 'slides', mimeType: 'application/pdf', extension: 'pdf' },
  { word: 'notes', mimeType: 'text/plain', extension: 'txt' },
  { word: 'diagram', mimeType: 'image/png', extension: 'png' },
  { word: 'photo', mimeType: 'image/jpeg', extension: 'jpg' },
  { word: 'lesson', mimeType: 'video/mp4', extension: 'mp4' },
];
/** The resource search word: the one topic that is rare (1 resource in 100). */
const RARE_TOPIC = 'photosynthesis';

export const classNameAt = (index: number) => `C${String(index + 1).padStart(4, '0')}`;
export const rollNumberAt = (index: number) => `s${String(index + 1).padStart(6, '0')}`;

/** Writes rows in multi-row INSERTs, BATCHES_PER_TRANSACTION of them per transaction. */
async function insertAll(db: Database, table: PgTable, rows: object[]) {
  const perTransaction = SEED_BATCH * BATCHES_PER_TRANSACTION;
  for (let start = 0; start < rows.length; start += perTransaction) {
    const chunk = rows.slice(start, start + perTransaction);
    await db.transaction(async (tx) => {
      for (let offset = 0; offset < chunk.length; offset += SEED_BATCH) {
        await tx.insert(table).values(chunk.slice(offset, offset + SEED_BATCH));
      }
    });
  }
}

const generatedQuestions = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    const options = [`${index + 2}`, `${index + 3}`, `${index + 4}`, `${index + 5}`];
    return { question_text: `What is ${index} + 2?`, options, answer: options[0]! };
  });

/** A quiz row as add-quiz would store it, from the shared factory. */
function quizRow(options: {
  teacherId: string;
  subject: string;
  className: string;
  classId: string;
  title: string;
  createdAt: Date;
  deadline: Date;
  /** Generated questions of four options; unset = the factory's three questions. */
  questionCount?: number;
}) {
  const payload = buildNewQuiz({
    classId: options.classId,
    title: options.title,
    ...(options.questionCount === undefined
      ? {}
      : { quiz: { background: QUIZ_BACKGROUNDS[3]!, questions: generatedQuestions(options.questionCount) } }),
  });
  // Read as the server reads add-quiz (SPEC §3's shape: 1-point single choice), stored with option ids.
  const questions: StoredQuestion[] = toStoredQuestions(
    payload.quiz.questions.map((question) => questionInputSchema.parse(question)),
    newOpaqueIds,
  );
  return {
    id: randomUUID(),
    title: options.title,
    subject: options.subject,
    classId: options.classId,
    createdAt: options.createdAt,
    deadline: options.deadline,
    maxTimeMinutes: Number(payload.maxTime),
    createdByTeacherId: options.teacherId,
    background: payload.quiz.background,
    questions,
    questionCount: questions.length,
    totalPoints: totalPointsOf(questions),
    // No accommodation in the bench: the quiz closes after its deadline, time and grace.
    closesAt: closesWithoutAccommodations({ deadline: options.deadline, maxTimeMinutes: Number(payload.maxTime) }),
  };
}

type QuizRowValue = ReturnType<typeof quizRow>;

/** A submitted attempt with `right` correct answers, through the real shuffle and scoring rules. */
function submittedAttempt(quiz: QuizRowValue, studentId: string, right: number, startedAt: Date, seconds: number) {
  const id = randomUUID();
  const endsAt = new Date(startedAt.getTime() + quiz.maxTimeMinutes * 60_000);
  const answers = Object.fromEntries(
    quiz.questions.map((question, index) => [
      question._id,
      (question as ChoiceQuestion).options.find((option) => option.correct === index < right)!._id,
    ]),
  );
  const closing = closeAttempt(
    { id, studentId, startedAt, endsAt },
    quiz.questions,
    answers,
    'submitted',
    new Date(startedAt.getTime() + seconds * 1000),
  );
  return {
    row: {
      id,
      quizId: quiz.id,
      studentId,
      startedAt,
      endsAt,
      layout: shuffleLayout(quiz.questions),
      answers,
      submittedAt: closing.submittedAt,
      endedBy: closing.endedBy,
      score: closing.score,
      accuracy: closing.accuracy,
      timeTakenSeconds: closing.timeTakenSeconds,
    },
    score: closing.score,
    accuracy: Number(closing.accuracy),
  };
}

/** Seeds the school into an empty, migrated database. */
export async function seedSchool(
  db: Database,
  plan: SchoolPlan,
  log: (line: string) => void = () => {},
): Promise<SeededSchool> {
  const began = performance.now();
  const random = seededRandom(20261122);
  const now = Date.now();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const classCount = Math.ceil(plan.students / plan.classSize);
  const classes = Array.from({ length: classCount }, (_, index) => classNameAt(index));
  const listClass = classes.at(-1)!;
  // Class records (decision 031): one per name, with its teachers and students added below.
  const classIds = new Map(classes.map((className) => [className, randomUUID()]));
  const classIdOf = (className: string) => classIds.get(className)!;
  await insertAll(
    db,
    classTable,
    classes.map((className) => ({ id: classIdOf(className), name: className, nameKey: identityKey(className) })),
  );

  const teacherRows = Array.from({ length: plan.teachers }, (_, index) => {
    const registration = buildTeacherAccount({
      name: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
      email: `bench.teacher.${index + 1}@school.test`,
      subject: SUBJECTS[index % SUBJECTS.length]!,
    });
    return {
      id: randomUUID(),
      name: registration.name,
      ...teacherIdentityColumns(registration.email),
      subject: registration.subject,
      passwordHash,
      createdAt: new Date(now - 400 * DAY_MS),
    };
  });
  await insertAll(db, teachers, teacherRows);
  const teacherOf = (index: number) => teacherRows[index % teacherRows.length]!;

  // Quizzes: finished ones per ordinary class (the leaderboard's history), the list class's own.
  const pastQuizzes = new Map<string, QuizRowValue[]>();
  const quizRows: QuizRowValue[] = [];
  classes.forEach((className, classIndex) => {
    if (className === listClass) return;
    const own = Array.from({ length: plan.pastQuizzesPerClass }, (_, index) => {
      const teacher = teacherOf(classIndex + index);
      const createdAt = new Date(now - (60 - index * 20) * DAY_MS);
      return quizRow({
        teacherId: teacher.id,
        subject: teacher.subject,
        className,
        classId: classIdOf(className),
        title: `${teacher.subject} check ${index + 1}`,
        createdAt,
        deadline: new Date(createdAt.getTime() + 7 * DAY_MS),
        questionCount: 10,
      });
    });
    pastQuizzes.set(className, own);
    quizRows.push(...own);
  });
  // The list class: quizzes over the last 90 days; the first listQuizzesAttempted are past their
  // deadline and submitted by every student of the class, the rest are open for another 1-60 days.
  const listQuizzes = Array.from({ length: plan.listQuizzes }, (_, index) => {
    const teacher = teacherOf(index);
    const isPast = index < plan.listQuizzesAttempted;
    const createdAt = new Date(now - (90 - (80 * index) / plan.listQuizzes) * DAY_MS);
    return quizRow({
      teacherId: teacher.id,
      subject: teacher.subject,
      className: listClass,
      classId: classIdOf(listClass),
      title: `${teacher.subject}: ${random.pick(TOPICS)} ${index + 1}`,
      createdAt,
      deadline: new Date(isPast ? now - (1 + random.below(5)) * DAY_MS : now + (1 + random.below(60)) * DAY_MS),
    });
  });
  quizRows.push(...listQuizzes);
  await insertAll(db, quizzes, quizRows);

  // Students, with the attempts behind their averages and the averages written the way
  // writeClosings writes them (2 decimals, from the attempts).
  const studentRows = [];
  const studentClassIds: { classId: string; studentId: string }[] = [];
  let attemptRows: ReturnType<typeof submittedAttempt>['row'][] = [];
  let attemptCount = 0;
  let listStudentId: string | undefined;
  for (let index = 0; index < plan.students; index += 1) {
    const className = classes[Math.floor(index / plan.classSize)]!;
    const registration = buildStudentRegistration({
      name: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
      rollNumber: rollNumberAt(index),
      email: `${rollNumberAt(index)}@students.school.test`,
      parentEmail: `parent.${rollNumberAt(index)}@family.test`,
    });
    const id = randomUUID();
    if (className === listClass && listStudentId === undefined) listStudentId = id;
    const taken =
      className === listClass
        ? listQuizzes.slice(0, plan.listQuizzesAttempted)
        : random.next() < 0.05
          ? [] // never attempted anything: not on the leaderboard
          : pastQuizzes.get(className)!.filter((_, quizIndex) => quizIndex === 0 || random.next() < 0.5);
    // Each student has an ability; a score is that many coin flips (averages spread, with ties).
    const ability = random.between(0.25, 0.95);
    const results = taken.map((quiz) => {
      const right = quiz.questions.filter(() => random.next() < ability).length;
      const attempt = submittedAttempt(
        quiz,
        id,
        right,
        new Date(quiz.createdAt.getTime() + DAY_MS + random.below(5 * DAY_MS)),
        30 + random.below(quiz.maxTimeMinutes * 60 - 30),
      );
      attemptRows.push(attempt.row);
      return attempt;
    });
    const average = (values: number[]) =>
      values.length === 0 ? 0 : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;
    studentRows.push({
      id,
      name: registration.name,
      ...studentIdentityColumns(registration),
      parentName: registration.parentName,
      parentEmail: registration.parentEmail,
      passwordHash,
      averageScore: average(results.map((result) => result.score)),
      averageAccuracy: average(results.map((result) => result.accuracy)),
      totalScore: results.reduce((sum, result) => sum + result.score, 0),
      quizzesAttempted: results.length,
      createdAt: new Date(now - 365 * DAY_MS),
    });
    studentClassIds.push({ classId: classIdOf(className), studentId: id });
    // Students first (the attempts refer to them), in slices so memory stays flat.
    if (studentRows.length === SEED_BATCH * BATCHES_PER_TRANSACTION || index === plan.students - 1) {
      const joined = studentRows.splice(0);
      await insertAll(db, students, joined);
      await insertAll(db, classStudents, studentClassIds.splice(0));
      await insertAll(db, quizAttempts, attemptRows);
      attemptCount += attemptRows.length;
      attemptRows = [];
      log(`  seeded ${index + 1} students, ${attemptCount} attempts`);
    }
  }

  // The library: every resource of the list class, from all teachers, over two years.
  const resourceRows = Array.from({ length: plan.resources }, (_, index) => {
    const teacher = teacherOf(index);
    const kind = KINDS[index % KINDS.length]!;
    const topic = index % 100 === 7 ? RARE_TOPIC : random.pick(TOPICS);
    const isLink = kind.word === 'lesson' && index % 2 === 0;
    return {
      id: randomUUID(),
      kind: isLink ? ('link' as const) : ('file' as const),
      fileName: `${topic} ${kind.word} ${index + 1}.${kind.extension}`,
      storageKey: isLink ? null : `bench/${randomUUID()}`,
      linkUrl: isLink ? `https://www.youtube.com/watch?v=bench${String(index).padStart(6, '0')}` : null,
      description: index % 3 === 0 ? null : `${teacher.subject} ${kind.word} on ${topic} for the class`,
      tags: [teacher.subject.toLowerCase(), topic],
      classId: classIdOf(listClass),
      subject: teacher.subject,
      mimeType: isLink ? 'video/youtube' : kind.mimeType,
      sizeBytes: isLink ? 0 : 20_000 + random.below(5_000_000),
      uploadedByTeacherId: teacher.id,
      createdAt: new Date(now - (730 * DAY_MS * (plan.resources - index)) / plan.resources),
    };
  });
  await insertAll(db, resources, resourceRows);
  // Each class is taught by the teachers with a quiz or resource in it, as migration 0013 decides,
  // and by the bench's teacher, who sets the exams (a quiz goes only into a class one teaches).
  const taught = new Set([
    ...classes.map((className) => `${classIdOf(className)} ${teacherRows[0]!.id}`),
    ...quizRows.map((row) => `${row.classId} ${row.createdByTeacherId}`),
    ...resourceRows.map((row) => `${row.classId} ${row.uploadedByTeacherId}`),
  ]);
  await insertAll(
    db,
    classTeachers,
    [...taught].map((pair) => {
      const [classId, teacherId] = pair.split(' ');
      return { classId, teacherId };
    }),
  );
  // The list class's first student has starred some of them.
  const starRows = resourceRows
    .filter((_, index) => index % Math.max(1, Math.floor(plan.resources / plan.starred)) === 0)
    .slice(0, plan.starred)
    .map((resource) => ({ resourceId: resource.id, studentId: listStudentId!, createdAt: new Date(now) }));
  await insertAll(db, resourceStars, starRows);

  // A school that grew to this size would have its planner statistics; a bulk load has none yet.
  await db.execute(sql`vacuum analyze`);

  const byClass = (className: string) => {
    const classIndex = classes.indexOf(className);
    const first = classIndex * plan.classSize;
    const last = Math.min(plan.students, first + plan.classSize);
    return Array.from({ length: Math.max(0, last - first) }, (_, offset) => rollNumberAt(first + offset));
  };
  return {
    plan,
    classes,
    teacherEmail: teacherRows[0]!.email,
    classIdOf,
    rollNumbersOf: byClass,
    listClass,
    listStudent: byClass(listClass)[0]!,
    leaderboardStudent: byClass(classes[Math.floor(classes.length / 2)]!)[0]!,
    leaderboardSearch: 'okafor',
    resourceSearch: RARE_TOPIC,
    counts: {
      teachers: teacherRows.length,
      students: plan.students,
      classes: classes.length,
      quizzes: quizRows.length,
      attempts: attemptCount,
      resources: resourceRows.length,
      stars: starRows.length,
    },
    seconds: (performance.now() - began) / 1000,
  };
}
