import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isTeacherQuizSummary } from '#shared/quizzes';
import { openApp } from '../../../testing/open-app.tsx';
import { classCodeOf, signInAs, signUpTeacher, teacherQuizzes } from '../../../testing/server-actors.ts';
import { toLocalInputValue } from './quiz-draft.ts';
import { patience } from '../../../../server/testing/patience.ts';

/** The quiz editor's review options (decision 032): two labelled selects, sent with the quiz. */
describe('the quiz editor’s review options', () => {
  it('offers when answers and score are shown, with help, and saves the choice', async () => {
    const teacher = await signUpTeacher();
    const mine = `Mine ${crypto.randomUUID().slice(0, 8)}`;
    await classCodeOf(mine, teacher);
    await classCodeOf(`Theirs ${crypto.randomUUID().slice(0, 8)}`, await signUpTeacher());
    signInAs(teacher, 'teacher');
    const { user } = await openApp('/dashboard/teacher/create-quiz');

    const answers = await screen.findByRole('combobox', { name: 'Show the correct answers' });
    const score = screen.getByRole('combobox', { name: 'Show the score' });
    // Defaults: the key after the deadline, the score right after submitting.
    expect(answers).toHaveValue('after-deadline');
    expect(score).toHaveValue('after-submit');
    expect(
      within(answers)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['After the deadline', 'Right after submitting', 'Never']);
    expect(answers).toHaveAccessibleDescription('Never: students see only their own choices.');
    expect(score).toHaveAccessibleDescription(
      'A hidden score also stays out of averages and the leaderboard until then.',
    );

    const title = `Review options ${crypto.randomUUID().slice(0, 8)}`;
    await user.type(screen.getByLabelText(/^Title/), title);
    // Only the teacher's own classes are offered (decision 031): picked, never typed.
    const picker = await screen.findByRole('combobox', { name: /^Class/ });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a class', mine]);
    await user.selectOptions(picker, mine);
    fireEvent.change(screen.getByLabelText(/^Deadline/), {
      target: { value: toLocalInputValue(new Date(Date.now() + 86_400_000)) },
    });
    await user.type(screen.getByLabelText(/^Maximum time/), '10');
    await user.selectOptions(answers, 'Never');
    await user.selectOptions(score, 'After the deadline');
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    const question = screen.getByRole('region', { name: 'Question 1' });
    await user.type(within(question).getByLabelText(/^Question text/), 'What is 2 + 2?');
    await user.type(within(question).getByLabelText('Option 1 of question 1'), '4');
    await user.type(within(question).getByLabelText('Option 2 of question 1'), '5');
    await user.click(within(question).getByLabelText('Option 1 of question 1 is correct'));
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));

    await screen.findByRole('heading', { name: /quizzes/i }, { timeout: patience(5000) });
    const saved = (await teacherQuizzes(teacher)).filter(isTeacherQuizSummary).find((quiz) => quiz.title === title);
    expect(saved).toMatchObject({ reviewAnswers: 'never', reviewScore: 'after-deadline' });
  });
});

/** The question editor by type (issue 20): each type's fields, labelled, and the schema's messages at them. */
describe('the quiz editor’s question types', () => {
  async function editorWithOneQuestion() {
    const teacher = await signUpTeacher();
    signInAs(teacher, 'teacher');
    const app = await openApp('/dashboard/teacher/create-quiz');
    await app.user.click(await screen.findByRole('button', { name: 'Add question' }));
    const question = screen.getByRole('region', { name: 'Question 1' });
    await app.user.type(within(question).getByLabelText(/^Question text/), 'Q?');
    return { ...app, question };
  }

  it('starts as single choice of 1 point and shows the total', async () => {
    const { question, user } = await editorWithOneQuestion();
    expect(within(question).getByRole('combobox', { name: 'Question type' })).toHaveValue('single');
    expect(within(question).getByRole('textbox', { name: /^Points/ })).toHaveValue('1');
    expect(screen.getByTestId('total-points')).toHaveTextContent('Total: 1 point');
    await user.clear(within(question).getByRole('textbox', { name: /^Points/ }));
    await user.type(within(question).getByRole('textbox', { name: /^Points/ }), '2,5');
    expect(screen.getByTestId('total-points')).toHaveTextContent('Total: 2.5 points');
  });

  it('single: one correct radio; saving without one says so at the options', async () => {
    const { question, user } = await editorWithOneQuestion();
    await user.type(within(question).getByLabelText('Option 1 of question 1'), 'A');
    await user.type(within(question).getByLabelText('Option 2 of question 1'), 'B');
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));
    expect(await within(question).findByText('Mark exactly one option as correct')).toBeInTheDocument();
    await user.click(within(question).getByRole('radio', { name: 'Option 1 of question 1 is correct' }));
    await user.click(within(question).getByRole('radio', { name: 'Option 2 of question 1 is correct' }));
    expect(within(question).getByRole('radio', { name: 'Option 1 of question 1 is correct' })).not.toBeChecked();
    expect(within(question).queryByText('Mark exactly one option as correct')).not.toBeInTheDocument();
  });

  it('multiple: correct checkboxes and the scoring select', async () => {
    const { question, user } = await editorWithOneQuestion();
    await user.selectOptions(within(question).getByRole('combobox', { name: 'Question type' }), 'multiple');
    expect(within(question).getAllByRole('checkbox')).toHaveLength(2);
    const scoring = within(question).getByRole('combobox', { name: 'Scoring' });
    expect(
      within(scoring)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All or nothing', 'Partial credit']);
    await user.type(within(question).getByLabelText('Option 1 of question 1'), 'A');
    await user.type(within(question).getByLabelText('Option 2 of question 1'), 'B');
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));
    expect(await within(question).findByText('Mark at least one option as correct')).toBeInTheDocument();
  });

  it('true/false: asks for the answer', async () => {
    const { question, user } = await editorWithOneQuestion();
    await user.selectOptions(within(question).getByRole('combobox', { name: 'Question type' }), 'true-false');
    expect(within(question).getByRole('radio', { name: 'True' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));
    expect(await within(question).findByText('Choose whether the statement is true or false')).toBeInTheDocument();
    await user.click(within(question).getByRole('radio', { name: 'False' }));
    expect(within(question).getByRole('radio', { name: 'False' })).toBeChecked();
  });

  it('short text: accepted answers added and removed; none is refused', async () => {
    const { question, user } = await editorWithOneQuestion();
    await user.selectOptions(within(question).getByRole('combobox', { name: 'Question type' }), 'short-text');
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));
    expect(await within(question).findByText('Add at least one accepted answer')).toBeInTheDocument();
    await user.click(within(question).getByRole('button', { name: 'Add accepted answer' }));
    expect(within(question).getByLabelText('Accepted answer 2 of question 1')).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Remove accepted answer 2 of question 1' }));
    expect(within(question).queryByLabelText('Accepted answer 2 of question 1')).not.toBeInTheDocument();
  });

  it('numeric: value and tolerance, with their messages', async () => {
    const { question, user } = await editorWithOneQuestion();
    await user.selectOptions(within(question).getByRole('combobox', { name: 'Question type' }), 'numeric');
    const tolerance = within(question).getByRole('textbox', { name: /^Tolerance/ });
    await user.clear(tolerance);
    await user.type(tolerance, '-1');
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));
    expect(await within(question).findByText('The value must be a number')).toBeInTheDocument();
    expect(within(question).getByText('Tolerance cannot be negative')).toBeInTheDocument();
    expect(within(question).getByRole('textbox', { name: /^Correct value/ })).toHaveAttribute('inputmode', 'decimal');
  });
});
