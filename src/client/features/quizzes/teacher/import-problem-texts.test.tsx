import { i18n, type Messages } from '@lingui/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAiken } from '#shared/aiken';
import { parseGift } from '#shared/gift';
import type { ImportIssue } from '#shared/import-problems';
import { messages as arabic } from '../../../locales/ar/messages.po';
import { messages as spanish } from '../../../locales/es/messages.po';
import { renderTranslated } from '../../../testing/render-translated.tsx';
import { IMPORT_PROBLEM_TEXTS, importProblemText } from './import-problem-texts.ts';
import { ImportQuestionsButton } from './import-questions-button.tsx';

// One example of every code's parameters: a code added without an example is a type error here.
const EXAMPLES: { [C in ImportIssue['code']]: Extract<ImportIssue, { code: C }>['params'] } = {
  FORMATTING_SHOWN_AS_PLAIN_TEXT: {},
  ANSWER_NEEDS_PREFIX: {},
  NOT_A_NUMBER: { value: 'abc' },
  RANGE_GOES_DOWN: { range: '5..1' },
  FEEDBACK_NOT_KEPT: {},
  NUMBER_ANSWER_NEEDS_PREFIX: {},
  NUMBER_WEIGHT_OUT_OF_RANGE: {},
  NO_FULL_NUMBER_ANSWER: {},
  PARTIAL_OVERLAPS_FULL: {},
  NUMBER_ANSWER_SHADOWED: { earlier: '1:2', later: '2', laterWeight: '50' },
  SHORT_WEIGHT_OUT_OF_RANGE: {},
  SHORT_ANSWER_SHADOWED: { earlier: 'Lyon*', earlierWeight: '0', later: 'Lyon', laterWeight: '100' },
  NO_FULL_SHORT_ANSWER: {},
  EMPTY_ANSWER_DROPPED: {},
  WEIGHT_OUT_OF_RANGE: {},
  RIGHT_ANSWER_EMPTY: {},
  NO_POSITIVE_WEIGHT: {},
  WEIGHTS_NOT_100: { sum: 90 },
  WRONG_OPTIONS_TAKE_NOTHING: {},
  PAIR_NEEDS_PREFIX: {},
  PAIR_NEEDS_ARROW: {},
  GENERAL_FEEDBACK_NOT_KEPT: {},
  NOT_A_NUMBER_OF_POINTS: { value: 'two' },
  CATEGORIES_IGNORED: {},
  TITLE_NOT_CLOSED: {},
  ANSWER_BLOCK_NOT_CLOSED: {},
  INVALID_QUESTION: { field: 'question_text', fieldCode: 'REQUIRED', fieldParams: {} },
  AIKEN_TOO_FEW_OPTIONS: {},
  AIKEN_ANSWER_NOT_AN_OPTION: { answer: 'E' },
  AIKEN_NO_ANSWER_LINE: {},
  AIKEN_ANSWER_BEFORE_QUESTION: {},
  AIKEN_OPTION_OUT_OF_ORDER: { letter: 'C', expected: 'B' },
};

const inLocale = (locale: string, messages: Messages) => {
  i18n.loadAndActivate({ locale, messages });
  return Object.entries(EXAMPLES).map(([code, params]) => importProblemText({ code, params } as ImportIssue));
};

afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('the import problems’ words (issue 32)', () => {
  it('words every code in English, Spanish and Arabic, each differently', () => {
    expect(Object.keys(IMPORT_PROBLEM_TEXTS).sort()).toEqual(Object.keys(EXAMPLES).sort());
    const english = inLocale('en', {});
    const [es, ar] = [inLocale('es', spanish), inLocale('ar', arabic)];
    for (const texts of [english, es, ar]) for (const text of texts) expect(text).toMatch(/\S/);
    // Every code has its own words in each catalog (no English left in es or ar).
    english.forEach((text, index) => {
      expect(es[index], text).not.toBe(text);
      expect(ar[index], text).not.toBe(text);
    });
  });

  it('isolates the file’s own text inside the quotes', () => {
    i18n.loadAndActivate({ locale: 'ar', messages: arabic });
    expect(importProblemText({ code: 'NOT_A_NUMBER', params: { value: 'abc' } })).toBe('«\u2068abc\u2069» ليس عددًا');
  });

  it('gives every problem of the readers a code (GIFT and Aiken)', () => {
    const gift = parseGift('Q {=%50%Lyon}\n\nR {=1 #fb}');
    const aiken = parseAiken('Question?\nA. x\nANSWER: B');
    expect([...gift.problems, ...aiken.problems].map((problem) => problem.code)).toEqual([
      'NO_FULL_SHORT_ANSWER',
      'FEEDBACK_NOT_KEPT',
      'AIKEN_TOO_FEW_OPTIONS',
    ]);
  });
});

describe('the import dialog in Spanish', () => {
  it('lists a problem in Spanish', async () => {
    const user = userEvent.setup();
    renderTranslated(<ImportQuestionsButton onImport={() => {}} />, { locale: 'es', messages: spanish });
    await user.click(screen.getByRole('button', { name: 'Importar preguntas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar preguntas' });
    await user.click(within(dialog).getByLabelText('O pega las preguntas'));
    await user.paste('Name a French city {=%50%Lyon}');
    await user.click(within(dialog).getByRole('button', { name: 'Revisar' }));
    const problems = within(dialog).getByRole('list', { name: 'Problemas' });
    expect(within(problems).getByRole('listitem')).toHaveTextContent('Ninguna respuesta corta vale 100 %');
  });
});
