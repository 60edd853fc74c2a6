import { randomBytes } from 'node:crypto';
import type { SchoolSetup } from '#shared/school';
import type { StudentRegistration, TeacherRegistration } from '#shared/accounts';
import { editInputOf, type EditQuizInput } from '#shared/quiz-lifecycle';
import type { TypedQuestionInput } from '#shared/question-types';
import { QUIZ_BACKGROUNDS, type NewQuizPayload, type TeacherQuizDetail } from '#shared/quizzes';

/**
 * Account and quiz builders shared by API tests, component tests and e2e scenarios (the demo
 * seed writes its own: no test code ships). Every call yields unique emails and roll numbers.
 */
const uniqueSuffix = () => randomBytes(4).toString('hex');

/** A teacher's own details (registration without its invitation, or the school's setup). */
export function buildTeacherAccount(
  overrides: Partial<TeacherRegistration> = {},
): Omit<TeacherRegistration, 'invitation'> {
  const suffix = uniqueSuffix();
  return {
    name: `Teacher ${suffix}`,
    subject: 'Mathematics',
    email: `teacher.${suffix}@school.test`,
    password: `correct-horse-${suffix}`,
    ...overrides,
  };
}

/** A teacher's registration with the given invitation code (inviteTeacher() makes one). */
export function buildTeacherRegistration(
  invitation: string,
  overrides: Partial<TeacherRegistration> = {},
): TeacherRegistration {
  return { ...buildTeacherAccount(overrides), invitation };
}

/**
 * The set-up code of every test server (decision 050): createTestApp passes it, server processes
 * get it as SETUP_CODE, the e2e servers too (playwright.config.ts).
 */
export const TEST_SETUP_CODE = 'TEST-SETUP-CODE-1234';

/** The first run's form: the set-up code, the school's name and its administrator. */
export function buildSchoolSetup(overrides: Partial<SchoolSetup> = {}): SchoolSetup {
  return { setupCode: TEST_SETUP_CODE, schoolName: `School ${uniqueSuffix()}`, ...buildTeacherAccount(), ...overrides };
}

/**
 * A student's registration. Its default class code is well formed but names no class: pass a
 * real one (`createClassFor` in testing/actors.ts, or the e2e helpers) for a registration that works.
 */
export function buildStudentRegistration(overrides: Partial<StudentRegistration> = {}): StudentRegistration {
  const suffix = uniqueSuffix();
  return {
    name: `Student ${suffix}`,
    rollNumber: `roll-${suffix}`,
    email: `student.${suffix}@school.test`,
    classCode: 'ABCD-EFGH',
    parentName: `Parent ${suffix}`,
    parentEmail: `parent.${suffix}@family.test`,
    password: `battery-staple-${suffix}`,
    ...overrides,
  };
}

/** A well-formed class id no class has. */
/** A question or option id as the server draws them (attempt-rules.ts newOpaqueIds): 8 base64url characters. */
export const OPAQUE_ID = /^[\w-]{8}$/;

export const NO_CLASS_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A valid add-quiz body for the class `classId` (one the teacher teaches: createClassFor or
 * classIdTaughtBy in testing/actors.ts): three questions whose answers are the first option,
 * deadline tomorrow. Without a class id it names none (a request refused at its class).
 */
export function buildNewQuiz(overrides: Partial<NewQuizPayload> = {}): NewQuizPayload {
  const suffix = uniqueSuffix();
  return {
    title: `Quiz ${suffix}`,
    classId: NO_CLASS_ID,
    deadline: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
    maxTime: 10,
    quiz: {
      background: QUIZ_BACKGROUNDS[1]!,
      questions: [
        { question_text: 'What is 2 + 2?', options: ['4', '3', '5'], answer: '4' },
        { question_text: 'What is the capital of France?', options: ['Paris', 'Rome', 'Madrid'], answer: 'Paris' },
        { question_text: 'Which is a prime number?', options: ['7', '8', '9', ''], answer: '7' },
      ],
    },
    ...overrides,
  };
}

/** One question of each type beyond SPEC §3's single choice (issue 20), with its key. */
export const TYPED_QUESTIONS: TypedQuestionInput[] = [
  {
    type: 'multiple',
    question_text: 'Which are even?',
    points: 2,
    scoring: 'partial',
    options: [
      { text: 'Two', correct: true },
      { text: 'Three', correct: false },
      { text: 'Four', correct: true },
    ],
  },
  { type: 'true-false', question_text: 'Ice is frozen water.', points: 1, correct: true },
  { type: 'short-text', question_text: 'Capital of China?', points: 1, accepted: ['Beijing', '北京'] },
  { type: 'numeric', question_text: 'Half of seven?', points: 1, value: 3.5, tolerance: 0.1 },
  {
    type: 'matching',
    question_text: 'Match each country to its capital',
    points: 2,
    pairs: [
      { prompt: 'France', match: 'Paris' },
      { prompt: 'Italy', match: 'Rome' },
      { prompt: '', match: 'Madrid' },
    ],
  },
  { type: 'description', question_text: 'The last question is about Europe.', points: 0 },
];

/** The edit body (PUT /api/quizzes/{id}) that changes nothing: the teacher's view sent back, ids kept. */
export type EditBody = Omit<EditQuizInput, 'quiz'> & { quiz: { background: string; questions: TypedQuestionInput[] } };

export function editBodyOf(quiz: TeacherQuizDetail): EditBody {
  return {
    title: quiz.title,
    classId: quiz.classId,
    deadline: quiz.deadline,
    maxTime: quiz.maxTime,
    reviewAnswers: quiz.reviewAnswers,
    reviewScore: quiz.reviewScore,
    version: quiz.version,
    quiz: { background: quiz.quiz.background, questions: quiz.quiz.questions.map(editInputOf) },
  };
}
