import * as accounts from '#shared/contract/accounts';
import * as apiDocs from '#shared/contract/api-docs';
import * as assignments from '#shared/contract/assignments';
import * as classBoards from '#shared/contract/class-boards';
import * as classes from '#shared/contract/classes';
import type { EndpointSpec } from '#shared/contract/endpoint';
import * as handInFiles from '#shared/contract/hand-in-files';
import * as health from '#shared/contract/health';
import * as liveGames from '#shared/contract/live-games';
import * as meetings from '#shared/contract/meetings';
import * as progress from '#shared/contract/progress';
import * as quizImages from '#shared/contract/quiz-images';
import * as quizzes from '#shared/contract/quizzes';
import * as quizAccommodations from '#shared/contract/quiz-accommodations';
import * as quizLifecycle from '#shared/contract/quiz-lifecycle';
import * as quote from '#shared/contract/quote';
import * as resources from '#shared/contract/resources';
import * as school from '#shared/contract/school';
import * as schoolDemo from '#shared/contract/school-demo';
import * as signIn from '#shared/contract/sign-in';
import * as students from '#shared/contract/students';
import * as tasks from '#shared/contract/tasks';

/** The contract's modules, one per feature (src/shared/contract): the tags of the OpenAPI document. */
const FEATURES: Record<string, Record<string, unknown>> = {
  accounts,
  'api-docs': apiDocs,
  assignments: { ...assignments, ...handInFiles },
  'class-boards': classBoards,
  classes,
  health,
  'live-games': liveGames,
  meetings,
  progress,
  quizzes,
  'quiz-accommodations': quizAccommodations,
  'quiz-lifecycle': quizLifecycle,
  'quiz-images': quizImages,
  quote,
  resources,
  // The demo's endpoint lives apart so that only /setup downloads it; it is the school's.
  school: { ...school, ...schoolDemo },
  'sign-in': signIn,
  students,
  tasks,
};

const isEndpoint = (value: unknown): value is EndpointSpec =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;

/** Each endpoint of the contract with its feature: exported directly, or in a per-role record. */
export function contractEndpoints(): { feature: string; endpoint: EndpointSpec }[] {
  const found = new Map<EndpointSpec, string>();
  for (const [feature, exports] of Object.entries(FEATURES)) {
    for (const value of Object.values(exports)) {
      const candidates = isEndpoint(value) ? [value] : typeof value === 'object' && value ? Object.values(value) : [];
      for (const endpoint of candidates.filter(isEndpoint)) found.set(endpoint, feature);
    }
  }
  return [...found].map(([endpoint, feature]) => ({ feature, endpoint }));
}

/** The feature of an endpoint ('other' for one outside the contract's modules). */
export function featureOf(): (endpoint: EndpointSpec) => string {
  const features = new Map(contractEndpoints().map(({ feature, endpoint }) => [endpoint, feature]));
  return (endpoint) => features.get(endpoint) ?? 'other';
}
