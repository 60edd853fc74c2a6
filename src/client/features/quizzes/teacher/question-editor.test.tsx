import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../../../testing/render-translated.tsx';
import { QuestionEditor } from './question-editor.tsx';
import { draftFromQuestion, toTypedQuestion, type DraftQuestion } from './quiz-draft.ts';

/** The editor as an edit screen holds it: a typed question in, the changed one out. */
function Editor({ initial, locked, onTyped }: { initial: DraftQuestion; locked?: boolean; onTyped(q: unknown): void }) {
  const [question, setQuestion] = useState(initial);
  return (
    <QuestionEditor
      index={0}
      question={question}
      errors={{}}
      locked={locked}
      onChange={(changed) => {
        setQuestion(changed);
        onTyped(toTypedQuestion(changed));
      }}
      onRemove={() => {}}
      focusLater={() => {}}
    />
  );
}

const stored = draftFromQuestion({
  _id: 'q1',
  type: 'multiple',
  question_text: 'Primes?',
  points: 2,
  scoring: 'partial',
  options: [
    { _id: 'o1', text: '2', correct: true },
    { _id: 'o2', text: '4', correct: false },
  ],
});

describe('the question editor, locked for a quiz with attempts', () => {
  it('keeps texts, points and the key editable but not the structure or the type', async () => {
    const user = userEvent.setup();
    const typed: unknown[] = [];
    renderTranslated(<Editor initial={stored} locked onTyped={(question) => typed.push(question)} />);
    const region = screen.getByRole('region', { name: 'Question 1' });
    expect(within(region).getByRole('combobox', { name: 'Question type' })).toBeDisabled();
    expect(within(region).queryByRole('button', { name: 'Add option' })).not.toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();

    await user.type(within(region).getByLabelText('Option 2 of question 1'), '!');
    await user.click(within(region).getByRole('checkbox', { name: 'Option 2 of question 1 is correct' }));
    // Ids kept: the attempts' answers still point at the same options.
    expect(typed.at(-1)).toEqual({
      _id: 'q1',
      type: 'multiple',
      question_text: 'Primes?',
      points: 2,
      scoring: 'partial',
      options: [
        { _id: 'o1', text: '2', correct: true },
        { _id: 'o2', text: '4!', correct: true },
      ],
    });
  });

  it('unlocked, adds and removes options and changes the type', async () => {
    const user = userEvent.setup();
    renderTranslated(<Editor initial={stored} onTyped={() => {}} />);
    const region = screen.getByRole('region', { name: 'Question 1' });
    await user.click(within(region).getByRole('button', { name: 'Add option' }));
    expect(within(region).getByLabelText('Option 3 of question 1')).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Remove option 3 of question 1' }));
    await user.selectOptions(within(region).getByRole('combobox', { name: 'Question type' }), 'numeric');
    expect(within(region).getByRole('textbox', { name: /^Correct value/ })).toBeInTheDocument();
    // Back to multiple: the options were kept.
    await user.selectOptions(within(region).getByRole('combobox', { name: 'Question type' }), 'multiple');
    expect(within(region).getByLabelText('Option 2 of question 1')).toHaveValue('4');
  });
});

describe('a short answer’s wildcards (decision 049)', () => {
  it('are off unless ticked, say what * means once on, and stay editable in a locked quiz', async () => {
    const user = userEvent.setup();
    const typed: unknown[] = [];
    const initial = draftFromQuestion({ _id: 'q2', type: 'short-text', question_text: 'Shade?', accepted: ['colour'] });
    renderTranslated(<Editor initial={initial} locked onTyped={(question) => typed.push(question)} />);
    const region = screen.getByRole('region', { name: 'Question 1' });
    const wildcards = within(region).getByRole('checkbox', { name: '* matches any text' });
    expect(wildcards).not.toBeChecked();
    expect(within(region).getByText(/“paris” matches “Paris”/)).toBeInTheDocument();

    await user.type(within(region).getByLabelText('Accepted answer 1 of question 1'), '*');
    expect(typed.at(-1)).toEqual({
      _id: 'q2',
      type: 'short-text',
      question_text: 'Shade?',
      points: 1,
      accepted: ['colour*'],
    });
    await user.click(wildcards);
    expect(typed.at(-1)).toEqual({
      _id: 'q2',
      type: 'short-text',
      question_text: 'Shade?',
      points: 1,
      accepted: ['colour*'],
      wildcards: true,
    });
    expect(within(region).getByText(/\* matches any text \(“\*colour\*” matches/)).toBeInTheDocument();
  });
});

describe('a number question’s further full answers (decision 043, addendum)', () => {
  it('lists each with its tolerance and 100 %, keeps it through an edit of the value, and removes it on request', async () => {
    const user = userEvent.setup();
    const typed: unknown[] = [];
    const roots = draftFromQuestion({
      _id: 'q1',
      type: 'numeric',
      question_text: 'A square root of 4?',
      points: 1,
      value: 2,
      tolerance: 0,
      partial: [
        { value: -2, tolerance: 0.01, weight: 100 },
        { value: 2, tolerance: 0.5, weight: 50 },
      ],
    });
    renderTranslated(<Editor initial={roots} locked onTyped={(question) => typed.push(question)} />);
    const region = screen.getByRole('region', { name: 'Question 1' });
    const items = within(region)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['-2 ± 0.01: 100%', '2 ± 0.5: 50%']);

    await user.type(within(region).getByRole('textbox', { name: /^Tolerance/ }), '.1');
    expect(typed.at(-1)).toMatchObject({
      tolerance: 0.1,
      partial: [
        { value: -2, tolerance: 0.01, weight: 100 },
        { value: 2, tolerance: 0.5, weight: 50 },
      ],
    });
    await user.click(within(region).getByRole('button', { name: 'Remove these answers' }));
    expect(typed.at(-1)).not.toHaveProperty('partial');
  });
});
