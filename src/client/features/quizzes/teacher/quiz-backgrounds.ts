import { msg, t } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { QUIZ_BACKGROUNDS } from '#shared/quizzes';
import { formatNumber } from '../../../lib/format.ts';

/** What each of the six templates (scripts/generate-art.mjs) shows, for alt text. */
const DESCRIPTIONS: MessageDescriptor[] = [
  msg`Indigo dots`,
  msg`Amber waves`,
  msg`Teal stripes`,
  msg`Hexagon tiles`,
  msg`Soft bokeh circles`,
  msg`Grid paper`,
];

export type BackgroundChoice = { path: string; name: string; description: string };

/** The templates, named and described in the active locale (read at render, never at load). */
export function backgroundChoices(): BackgroundChoice[] {
  return QUIZ_BACKGROUNDS.map((path, index) => {
    const number = formatNumber(index + 1);
    const description = DESCRIPTIONS[index];
    return {
      path,
      name: t({ comment: 'A quiz background image: Template 1 to 6', message: `Template ${number}` }),
      description: description ? i18n._(description) : t`Pattern`,
    };
  });
}

export function describeBackground(path: string): string {
  const choice = backgroundChoices().find((candidate) => candidate.path === path);
  if (!choice) return t`Custom background`;
  const name = choice.name;
  // "Template 1, indigo dots": the description is part of the sentence.
  const description = choice.description.toLocaleLowerCase(i18n.locale);
  return t({ comment: 'A background: its name, then what it shows', message: `${name}, ${description}` });
}
