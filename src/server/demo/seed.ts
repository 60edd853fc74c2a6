import { Readable } from 'node:stream';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import {
  DEMO_CLASS_NAMES,
  DEMO_PASSWORD,
  DEMO_SCHOOL_NAME,
  DEMO_SCIENCE_TEACHER_EMAIL,
  DEMO_TEACHER_EMAIL,
  DEMO_TEACHER_EMAILS,
  demoRollNumber,
} from '#shared/demo';
import { emailKey, identityKey } from '#shared/identity';
import type { AddClassStudent } from '#shared/classes';
import type { NewQuiz, NewQuizPayload, QuizQuestion } from '#shared/quizzes';
import type { AnswerValue, TypedQuestionInput } from '#shared/question-types';
import { newQuizSchema, QUIZ_BACKGROUNDS } from '#shared/quizzes';
import { newTaskId } from '#shared/tasks';
import type { Database } from '../db/client.ts';
import { quizAttempts, quizzes, resources, schools, students, teachers } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { createAccountsService } from '../features/accounts/service.ts';
import { sessionVersionsThrough } from '../features/accounts/session-versions.ts';
import { createClassesService } from '../features/classes/service.ts';
import { createQuizJobsService, type createQuizzesService } from '../features/quizzes/service.ts';
import { createSchoolService } from '../features/school/service.ts';
import { detectContentType } from '../features/resources/content-type.ts';
import { createFileAccess } from '../features/resources/file-access.ts';
import { createResourcesService } from '../features/resources/service.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { demoBarChartPng, demoPdf } from './demo-files.ts';
import { seedAssignments } from './seed-assignments.ts';
import { createTasksService } from '../features/tasks/service.ts';
import { createTokenService } from '../plugins/auth.ts';
import { readsUncached } from '../cache/read-cache.ts';

/** The sweep and the release present no quiz: image addresses are never signed here. */

/**
 * The demo school: two teachers (two subjects; the first administers the school), two classes of students, quizzes
 * with attempts of varied quality, and a task list. Everything goes through the
 * same services as the API, built with the test factories. Idempotent: each
 * thing is created only if it is not there yet.
 */

const CLASSES = DEMO_CLASS_NAMES;
const STUDENT_NAMES: Record<(typeof CLASSES)[number], string[]> = {
  '10A': [
    'Aisha Khan',
    'Lucas Martin',
    'Mei Chen',
    'Tomás García',
    'Grace Okafor',
    'Noah Schmidt',
    'Priya Nair',
    'Elias Berg',
  ],
  '10B': [
    'Sofia Rossi',
    'Kwame Mensah',
    'Hannah Cohen',
    'Yuki Tanaka',
    'Omar Haddad',
    'Chloé Dubois',
    'Leon Novak',
    'Amara Diallo',
  ],
};

/** The demo's students' usernames: with DEMO_TEACHER_EMAILS, what marks the demo's rows (decision 050). */
export const DEMO_ROLL_NUMBERS: readonly string[] = CLASSES.flatMap((className) =>
  STUDENT_NAMES[className].map((_, index) => demoRollNumber(className, index)),
);

type SpecQuestion = { question_text: string; options: string[]; answer: string };
/** SPEC §3's questions (1-point single choice) or typed ones (issue 20). */
type QuizPlan = { title: string; questions: (SpecQuestion | TypedQuestionInput)[] };

const MATHS_QUIZZES: QuizPlan[] = [
  {
    title: 'Fractions and decimals',
    questions: [
      { question_text: 'What is 1/2 + 1/4?', options: ['3/4', '2/6', '1/8', '2/4'], answer: '3/4' },
      { question_text: 'Which is the largest?', options: ['0.505', '0.5', '0.05', '0.055'], answer: '0.505' },
      { question_text: 'Write 0.25 as a fraction.', options: ['1/4', '1/25', '25/10', '2/5'], answer: '1/4' },
      { question_text: 'What is 30% of 50?', options: ['15', '1.5', '35', '150'], answer: '15' },
    ],
  },
  {
    title: 'Linear equations',
    questions: [
      { question_text: 'Solve 2x + 3 = 11.', options: ['4', '7', '5.5', '8'], answer: '4' },
      { question_text: 'Solve x / 3 = 5.', options: ['15', '8', '5/3', '2'], answer: '15' },
      { question_text: 'What is the slope of y = 3x − 2?', options: ['3', '−2', '2/3', '1'], answer: '3' },
    ],
  },
];

const SCIENCE_QUIZZES: QuizPlan[] = [
  {
    // Every question type (issue 20), with points and partial credit.
    title: 'Forces and energy (mixed)',
    questions: [
      {
        type: 'single',
        question_text: 'What is the unit of force?',
        points: 1,
        options: [
          { text: 'Newton', correct: true },
          { text: 'Joule', correct: false },
          { text: 'Watt', correct: false },
        ],
      },
      {
        type: 'multiple',
        question_text: 'Which are forms of energy?',
        points: 2,
        scoring: 'partial',
        options: [
          { text: 'Kinetic', correct: true },
          { text: 'Thermal', correct: true },
          { text: 'Mass', correct: false },
          { text: 'Speed', correct: false },
        ],
      },
      { type: 'true-false', question_text: 'Friction always acts against motion.', points: 1, correct: true },
      {
        type: 'short-text',
        question_text: 'What force pulls objects towards Earth?',
        points: 1,
        accepted: ['Gravity'],
      },
      {
        type: 'numeric',
        question_text: 'A 2 kg mass accelerates at 3 m/s². What is the force in newtons?',
        points: 1.5,
        value: 6,
        tolerance: 0,
      },
    ],
  },
  {
    title: 'States of matter',
    questions: [
      {
        question_text: 'At what temperature does water boil at sea level?',
        options: ['100 °C', '90 °C', '212 °C', '50 °C'],
        answer: '100 °C',
      },
      {
        question_text: 'Which change turns a gas into a liquid?',
        options: ['Condensation', 'Evaporation', 'Melting', 'Sublimation'],
        answer: 'Condensation',
      },
      {
        question_text: 'Which state has a fixed shape?',
        options: ['Solid', 'Liquid', 'Gas', 'Plasma'],
        answer: 'Solid',
      },
    ],
  },
];

/** Left without attempts, so the demo student has a quiz to take. */
const OPEN_QUIZ_TITLE = 'Linear equations (10A)';

export type SeedSummary = {
  teachers: number;
  students: number;
  quizzes: number;
  attempts: number;
  resources: number;
  assignments: number;
};

/** Registers an account unless one with the same unique key exists (409 = already seeded). */
async function ensure<T>(create: () => Promise<T>): Promise<T | undefined> {
  try {
    return await create();
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 409) return undefined;
    throw error;
  }
}

/** The demo's teachers: the first sets the school up and administers it. */
const TEACHER_PLANS = [
  { email: DEMO_TEACHER_EMAIL, name: 'Amara Okafor', subject: 'Mathematics', plans: MATHS_QUIZZES },
  { email: DEMO_SCIENCE_TEACHER_EMAIL, name: 'Daniel Weber', subject: 'Science', plans: SCIENCE_QUIZZES },
] as const;

const demoAccountOf = (plan: (typeof TEACHER_PLANS)[number]) => ({
  email: plan.email,
  name: plan.name,
  subject: plan.subject,
  password: DEMO_PASSWORD,
});

/** The services the seed writes through, as the API's: its tokens are never handed out. */
function seedServices(db: Database) {
  const sessions = sessionVersionsThrough(db, readsUncached());
  const tokens = createTokenService('seed-tokens-are-never-used-0123456789abcdef', sessions);
  return {
    accounts: createAccountsService(db, tokens, sessions),
    school: createSchoolService(db, tokens, sessions),
  };
}

/**
 * "Fill with a demo school" on a fresh server's set-up screen (decision 041). The school is
 * claimed first, in the set-up's own transaction: where a school exists already this throws
 * SCHOOL_ALREADY_SET_UP before anything is written, so the public demo passwords can never
 * land in a real school, and of two clicks at once only one seeds.
 */
export async function seedDemoSchool(db: Database, storage: FileStorage): Promise<SeedSummary> {
  await seedServices(db).school.setUp({ schoolName: DEMO_SCHOOL_NAME, ...demoAccountOf(TEACHER_PLANS[0]) });
  return seedDemo(db, storage);
}

/**
 * The school's name when the database holds a real one: a school with any teacher who is not
 * one of the demo's (decision 050). `npm run seed` refuses it unless told to (--force): the
 * demo's public passwords would open accounts in a school real people use.
 */
export async function realSchoolIn(db: Database): Promise<string | undefined> {
  const [school] = await db.select({ name: schools.name }).from(schools).limit(1);
  if (!school) return undefined;
  const [realTeacher] = await db
    .select({ id: teachers.id })
    .from(teachers)
    .where(
      notInArray(
        teachers.emailKey,
        DEMO_TEACHER_EMAILS.map((email) => emailKey(email)),
      ),
    )
    .limit(1);
  return realTeacher ? school.name : undefined;
}

/** `storage` given: the class libraries get demo resources too (files need somewhere to live). */
export async function seedDemo(db: Database, storage?: FileStorage): Promise<SeedSummary> {
  const { accounts, school } = seedServices(db);
  const quizService = createQuizJobsService(db);
  const taskLists = createTasksService(db);

  const teacherIds: { id: string; plans: readonly QuizPlan[] }[] = [];
  for (const plan of TEACHER_PLANS) {
    const account = demoAccountOf(plan);
    // The first demo teacher sets the school up and administers it; the other is invited (decision 030).
    const findTeacher = async () =>
      (
        await db
          .select({ id: teachers.id })
          .from(teachers)
          .where(eq(teachers.emailKey, emailKey(plan.email)))
      )[0];
    if (!(await findTeacher())) {
      const setUp = await ensure(() => school.setUp({ schoolName: DEMO_SCHOOL_NAME, ...account }));
      if (setUp === undefined) {
        const invited = await school.createInvitation({ note: plan.name }, null);
        await accounts.registerTeacher({ ...account, invitation: invited.code });
      }
    }
    teacherIds.push({ id: (await findTeacher())!.id, plans: plan.plans });
  }

  // The classes as records (decision 031): the first teacher makes them (each with a join
  // code), the second co-teaches; students, quizzes and resources below find them by name.
  const classService = createClassesService(db, readsUncached());
  for (const className of CLASSES) {
    const created = await ensure(() => classService.create(teacherIds[0]!.id, { name: className }));
    if (created) await classService.addCoTeacher(teacherIds[0]!.id, created._id, { teacherId: teacherIds[1]!.id });
  }
  // A re-run finds them made: their ids by name, from the first teacher's list.
  const classIds = new Map(
    (await classService.listForTeacher(teacherIds[0]!.id)).map((taught) => [taught.name, taught._id]),
  );

  const studentIds: { id: string; className: string; index: number }[] = [];
  for (const className of CLASSES) {
    for (const [index, name] of STUDENT_NAMES[className].entries()) {
      const rollNumber = demoRollNumber(className, index);
      const account: AddClassStudent = {
        name,
        rollNumber,
        email: `${rollNumber}@example.com`,
        parentName: `Parent of ${name.split(' ')[0]}`,
        parentEmail: `parent.${rollNumber}@example.com`,
        password: DEMO_PASSWORD,
      };
      await ensure(() => accounts.addStudentToClass(teacherIds[0]!.id, classIds.get(className)!, account));
      const [row] = await db
        .select({ id: students.id })
        .from(students)
        .where(eq(students.rollNumberKey, identityKey(rollNumber)));
      studentIds.push({ id: row!.id, className, index });
    }
  }

  let attempts = 0;
  let quizCount = 0;
  for (const [teacherIndex, teacher] of teacherIds.entries()) {
    for (const [planIndex, plan] of teacher.plans.entries()) {
      for (const className of CLASSES) {
        const title = `${plan.title} (${className})`;
        const [existing] = await db
          .select({ id: quizzes.id })
          .from(quizzes)
          .where(sql`${quizzes.createdByTeacherId} = ${teacher.id} and ${quizzes.title} = ${title}`);
        const input: NewQuiz = newQuizSchema.parse({
          title,
          classId: classIds.get(className)!,
          maxTime: 15,
          deadline: new Date(Date.now() + 14 * 86_400_000).toISOString(),
          quiz: {
            background: QUIZ_BACKGROUNDS[(teacherIndex * 2 + planIndex) % QUIZ_BACKGROUNDS.length]!,
            questions: plan.questions,
          },
        } satisfies NewQuizPayload);
        const quizId = existing?.id ?? (await quizService.createQuiz(teacher.id, input))._id;
        // A re-run keeps the demo usable: the deadlines move two weeks ahead again.
        if (existing)
          await db
            .update(quizzes)
            .set({ deadline: new Date(input.deadline) })
            .where(eq(quizzes.id, quizId));
        quizCount += 1;
        // One quiz stays open for the demo student's class to take; the others have attempts.
        if (title === OPEN_QUIZ_TITLE) continue;
        for (const student of studentIds.filter((candidate) => candidate.className === className)) {
          attempts += await takeQuiz(db, quizService, quizId, student.id, plan, student.index + planIndex);
        }
      }
    }
  }

  const demoTeacher = { id: teacherIds[0]!.id, role: 'teacher' as const };
  const list = await taskLists.getList(demoTeacher);
  if (list.tasks.length === 0) {
    await taskLists.replaceList(demoTeacher, {
      version: list.version,
      tasks: [
        { id: newTaskId(), text: 'Review the fractions results with 10B', isCompleted: false },
        { id: newTaskId(), text: 'Prepare next week’s linear equations quiz', isCompleted: false },
        { id: newTaskId(), text: 'Send the term report to parents', isCompleted: true },
      ],
    });
  }
  const resourceCount = storage ? await seedResources(db, storage, teacherIds[0]!.id, classIds) : 0;
  // After the resources: the worksheet attaches the library's PDF when there is one.
  const assignmentCount = await seedAssignments(db, teacherIds[0]!.id, classIds, studentIds);
  return {
    teachers: teacherIds.length,
    students: studentIds.length,
    quizzes: quizCount,
    attempts,
    resources: resourceCount,
    assignments: assignmentCount,
  };
}

/** The maths teacher's library for each class: a PDF, a chart, a CSV and a hosted video; each once. */
async function seedResources(
  db: Database,
  storage: FileStorage,
  teacherId: string,
  classIds: Map<string, string>,
): Promise<number> {
  const library = createResourcesService(
    db,
    storage,
    createFileAccess('seed-never-signs-0123456789abcdef'),
    console,
    readsUncached(),
  );
  const files = [
    {
      name: 'Fractions cheat sheet.pdf',
      description: 'Adding, comparing and converting fractions on one page.',
      tags: ['fractions', 'revision'],
      content: demoPdf('Fractions cheat sheet', [
        'Add: find a common denominator, then add the numerators.',
        '  1/2 + 1/4 = 2/4 + 1/4 = 3/4',
        'Compare: write both with the same denominator.',
        'Convert: 1/4 = 0.25 = 25%;  3/5 = 0.6 = 60%',
        'Simplify: divide top and bottom by their greatest common divisor.',
      ]),
    },
    {
      name: 'Class results by topic.png',
      description: 'Average accuracy per topic this term.',
      tags: ['progress'],
      content: demoBarChartPng([0.82, 0.64, 0.71, 0.9, 0.55]),
    },
    {
      name: 'Linear equations practice.csv',
      description: 'Twenty practice equations with answers, for a spreadsheet.',
      tags: ['equations', 'practice'],
      content: Buffer.from(
        [
          'equation,answer',
          ...Array.from({ length: 20 }, (_, index) => `${index + 2}x + ${index} = ${(index + 2) * 3 + index},3`),
        ].join('\n'),
      ),
    },
  ];
  let created = 0;
  for (const className of CLASSES) {
    const classId = classIds.get(className)!;
    const existing = await db
      .select({ fileName: resources.fileName })
      .from(resources)
      .where(and(eq(resources.uploadedByTeacherId, teacherId), eq(resources.classId, classId)));
    const existingNames = new Set(existing.map((row) => row.fileName));
    for (const file of files) {
      if (existingNames.has(file.name)) continue;
      const mimeType = (await detectContentType(file.content, file.name))!;
      const storageKey = library.newStorageKey();
      const sizeBytes = await storage.write(storageKey, Readable.from([file.content]), mimeType);
      await library.createUpload(
        teacherId,
        { classId, subject: undefined, fileName: file.name, description: file.description, tags: file.tags },
        { storageKey, sizeBytes, mimeType, originalName: file.name },
      );
      created += 1;
    }
    const videoTitle = 'Fractions on a number line (video)';
    if (!existingNames.has(videoTitle)) {
      await library.createVideoLink(teacherId, {
        url: 'https://www.youtube.com/watch?v=CA9XLJpQp3c',
        fileName: videoTitle,
        subject: undefined,
        classId,
        description: 'A short hosted video; it plays when the school has internet access.',
        tags: ['fractions', 'video'],
      });
      created += 1;
    }
  }
  return created;
}

/** A right or a wrong answer to a planned question, as a client sends it. */
function demoAnswer(
  planned: SpecQuestion | TypedQuestionInput,
  shown: QuizQuestion,
  isRight: boolean,
): { selectedOption: string } | { response: AnswerValue | null } {
  const idOf = (text: string) => shown.options!.find((option) => option.text === text)!._id;
  if (!('type' in planned)) {
    // SPEC §7 clients send the option's text.
    const wrong = planned.options.find((option) => option !== planned.answer)!;
    return { selectedOption: isRight ? planned.answer : wrong };
  }
  switch (planned.type) {
    case 'single':
    case 'multiple': {
      const chosen = planned.options.filter((option) => option.correct === isRight).map((option) => idOf(option.text));
      return { response: planned.type === 'single' ? chosen[0]! : chosen };
    }
    case 'true-false':
      return { response: isRight === planned.correct };
    case 'short-text':
      return { response: isRight ? planned.accepted[0]! : 'I do not know' };
    case 'numeric':
      return { response: String(isRight ? planned.value : planned.value + planned.tolerance + 1) };
    case 'essay':
      return { response: isRight ? 'A careful answer in a few sentences.' : 'I am not sure.' };
    case 'matching': {
      // Right: each prompt to its own match; wrong: each prompt to the first choice shown.
      const choiceOf = (text: string) => shown.choices!.find((choice) => choice.text === text)!._id;
      const pairs = planned.pairs.filter((pair) => pair.prompt !== '');
      return {
        response: Object.fromEntries(
          shown.prompts!.map((prompt) => [
            prompt._id,
            isRight ? choiceOf(pairs.find((pair) => pair.prompt === prompt.text)!.match) : shown.choices![0]!._id,
          ]),
        ),
      };
    }
    case 'description':
      return { response: null };
  }
}

/**
 * One student's attempt, through the real start and submit: a student with a
 * higher "skill" gets more answers right, and took a plausible time.
 */
async function takeQuiz(
  db: Database,
  quizService: ReturnType<typeof createQuizzesService>,
  quizId: string,
  studentId: string,
  plan: QuizPlan,
  skill: number,
): Promise<number> {
  const started = await quizService.startAttempt(studentId, quizId);
  if (started.attempt?.status !== 'in-progress') return 0;
  const minutesAgo = 3 + (skill % 7);
  await db
    .update(quizAttempts)
    .set({
      startedAt: sql`now() - make_interval(mins => ${minutesAgo})`,
      endsAt: sql`now() - make_interval(mins => ${minutesAgo}) + make_interval(mins => 15)`,
    })
    .where(sql`${quizAttempts.quizId} = ${quizId} and ${quizAttempts.studentId} = ${studentId}`);
  const planOf = new Map(plan.questions.map((question) => [question.question_text, question]));
  const questions = started.quiz.questions.map((question, index) => {
    // Deterministic spread of results: strong students miss little, others more.
    const isRight = (skill * 7 + index * 3) % 10 < 10 - (skill % 6);
    return { _id: question._id, ...demoAnswer(planOf.get(question.question_text)!, question, isRight) };
  });
  await quizService.submitAttempt(studentId, { quiz: { _id: quizId, questions } });
  return 1;
}
