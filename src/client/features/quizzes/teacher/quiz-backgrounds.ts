import { QUIZ_BACKGROUNDS } from '#shared/quizzes';

/** What each of the six templates (scripts/generate-art.mjs) shows, for alt text. */
const DESCRIPTIONS = [
  'Indigo dots',
  'Amber waves',
  'Teal stripes',
  'Hexagon tiles',
  'Soft bokeh circles',
  'Grid paper',
];

export type BackgroundChoice = { path: string; name: string; description: string };

export const BACKGROUND_CHOICES: BackgroundChoice[] = QUIZ_BACKGROUNDS.map((path, index) => ({
  path,
  name: `Template ${index + 1}`,
  description: DESCRIPTIONS[index] ?? 'Pattern',
}));

export function describeBackground(path: string): string {
  const choice = BACKGROUND_CHOICES.find((candidate) => candidate.path === path);
  return choice ? `${choice.name}, ${choice.description.toLowerCase()}` : 'Custom background';
}
