import type { CannonRequest } from './load.ts';
import type { SeededSchool } from './seed-school.ts';

/** A read scenario: the requests a page sends (taken in turn), and which budgets apply. */
export type ReadScenario = {
  id: string;
  title: string;
  requests: CannonRequest[];
  isLeaderboard: boolean;
  /** Scenarios 3-5 of issue 8 carry the read budgets; extra ones are reported beside them. */
  isBudgeted: boolean;
  /** Run only with the read cache on (its uncached cost is another scenario's). */
  isCachedOnly?: boolean;
};

/**
 * listStudents: every student of the list class, signed in; the first is "the student" of
 * scenarios 4 and 5. The quiz list and the library are cached per student (decision 015), so
 * one student repeating a page measures that student's cache: the `-class` scenarios have
 * the class's students take turns, as a class opening the page does (reported, not budgeted).
 * The library search is budgeted with the class's students in turn (the stricter form).
 */
export type ReadTokens = { teacher: string; leaderboardStudent: string; listStudents: string[] };

const get = (path: string, token: string): CannonRequest => ({ path, headers: { authorization: `Bearer ${token}` } });

/** Scenarios 3-5 of issue 8, as the client asks for them (first pages, default sizes). */
export function readScenarios(school: SeededSchool, tokens: ReadTokens): ReadScenario[] {
  const students = school.plan.students.toLocaleString('en-GB');
  const resources = school.plan.resources.toLocaleString('en-GB');
  const student = tokens.listStudents[0] ?? '';
  // The quiz page asks for its two sections at once.
  const quizListOf = (token: string) => [
    get('/api/get-all-quiz?view=online&offset=0&limit=50', token),
    get('/api/get-all-quiz?view=attempted&offset=0&limit=50', token),
  ];
  const libraryOf = (token: string) =>
    get('/api/get-resources?sortBy=createdAt&sortOrder=desc&offset=0&limit=20', token);
  return [
    {
      id: 'leaderboard-all',
      title: `Leaderboard, all classes (teacher), first page of 50, ${students} students`,
      requests: [get('/api/get-students?offset=0&limit=50', tokens.teacher)],
      isLeaderboard: true,
      isBudgeted: true,
    },
    {
      id: 'leaderboard-class',
      title: `Leaderboard of the student's own class (student), first page`,
      requests: [get('/api/get-students?offset=0&limit=50', tokens.leaderboardStudent)],
      isLeaderboard: true,
      isBudgeted: true,
    },
    {
      id: 'leaderboard-search',
      title: `Leaderboard, all classes, name search "${school.leaderboardSearch}" (ranks kept)`,
      requests: [get(`/api/get-students?offset=0&limit=50&search=${school.leaderboardSearch}`, tokens.teacher)],
      isLeaderboard: true,
      // Not in the list: ranks of matches need a walk of the leaderboard's head.
      isBudgeted: false,
    },
    {
      id: 'quiz-list',
      title: `Quiz list of a student whose class has ${school.plan.listQuizzes} quizzes (Online + Attempted)`,
      requests: quizListOf(student),
      isLeaderboard: false,
      isBudgeted: true,
    },
    {
      id: 'quiz-list-class',
      title: `Quiz list, the class's ${tokens.listStudents.length} students in turn (per-student pages, reported)`,
      requests: tokens.listStudents.flatMap(quizListOf),
      isLeaderboard: false,
      isBudgeted: false,
      isCachedOnly: true,
    },
    {
      id: 'resources-list',
      title: `Resources of a class with ${resources} resources, first page (newest first)`,
      requests: [libraryOf(student)],
      isLeaderboard: false,
      isBudgeted: true,
    },
    {
      id: 'resources-list-class',
      title: `Resources, first page, the class's ${tokens.listStudents.length} students in turn (per-student pages, reported)`,
      requests: tokens.listStudents.map(libraryOf),
      isLeaderboard: false,
      isBudgeted: false,
      isCachedOnly: true,
    },
    {
      id: 'resources-search',
      title: `Resources, search "${school.resourceSearch}" (1 in 100 match), the class's students in turn`,
      requests: tokens.listStudents.map((token) =>
        get(
          `/api/get-resources?sortBy=createdAt&sortOrder=desc&search=${school.resourceSearch}&offset=0&limit=20`,
          token,
        ),
      ),
      isLeaderboard: false,
      isBudgeted: true,
    },
  ];
}

/** The 20-question exam of one class and round, as add-quiz takes it. */
export function examQuestions(round: number) {
  const options = ['First value', 'Second value', 'Third value', 'Fourth value'];
  return Array.from({ length: 20 }, (_, index) => ({
    question_text: `Question ${index + 1} of exam ${round}: which value is right?`,
    options,
    answer: options[index % options.length]!,
  }));
}
