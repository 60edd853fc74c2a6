import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isTeacherQuizSummary } from '#shared/quizzes';
import { openApp } from '../../../testing/open-app.tsx';
import { classCodeOf, signInAs, signUpTeacher, teacherQuizzes } from '../../../testing/server-actors.ts';
import { toLocalInputValue } from './quiz-draft.ts';

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
    // The option boxes follow the question's text box.
    const optionBox = (position: number) => within(question).getAllByRole('textbox')[position]!;
    await user.type(optionBox(1), '4');
    await user.click(within(question).getByRole('button', { name: 'Add option' }));
    await user.type(optionBox(2), '5');
    await user.selectOptions(within(question).getByLabelText(/^Correct answer/), '4');
    await user.click(screen.getByRole('button', { name: 'Save quiz' }));

    await screen.findByRole('heading', { name: /quizzes/i }, { timeout: 5000 });
    const saved = (await teacherQuizzes(teacher)).filter(isTeacherQuizSummary).find((quiz) => quiz.title === title);
    expect(saved).toMatchObject({ reviewAnswers: 'never', reviewScore: 'after-deadline' });
  });
});
