import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QUIZ_BACKGROUNDS } from '#shared/quizzes';
import { openApp } from '../../../testing/open-app.tsx';
import {
  addQuiz,
  classCodeOf,
  essaysOf,
  markEssayAs,
  signInAs,
  signUpStudent,
  signUpTeacher,
  startQuiz,
  submitQuiz,
} from '../../../testing/server-actors.ts';

/**
 * The marking screen (decision 046) on the real server: a student's essay awaiting marking,
 * its guidance, a mark refused above the question's points at the field, a mark saved (the
 * essay moves to Marked), and a mark given meanwhile by someone else said and not overwritten.
 */
async function essayAwaitingMarking() {
  const className = `Marking-${crypto.randomUUID().slice(0, 8)}`;
  const teacher = await signUpTeacher();
  const classCode = await classCodeOf(className, teacher);
  const quiz = await addQuiz(teacher, {
    class: className,
    quiz: {
      background: QUIZ_BACKGROUNDS[0],
      questions: [
        { type: 'essay', question_text: 'Why does ice float?', points: 4, guidance: 'Density and hydrogen bonds.' },
      ],
    },
  });
  const student = await signUpStudent({ classCode });
  const started = await startQuiz(student, quiz._id);
  await submitQuiz(student, quiz._id, [{ _id: started.quiz.questions[0]!._id, response: 'It is less dense.' }]);
  signInAs(teacher, 'teacher');
  return { teacher, quiz, ...(await openApp(`/dashboard/teacher/quiz-analytics/${quiz._id}/marking`)) };
}

describe('the marking screen', () => {
  it('marks an essay: points checked at the field, then saved, and the essay moves to Marked', async () => {
    const { teacher, quiz, user } = await essayAwaitingMarking();
    const essay = await screen.findByTestId('essay-to-mark');
    expect(essay).toHaveTextContent('It is less dense.');
    expect(essay).toHaveTextContent('Q1 (4 points). Why does ice float?');
    await user.click(within(essay).getByText('Marking guidance'));
    expect(within(essay).getByText('Density and hydrogen bonds.')).toBeVisible();

    const points = within(essay).getByRole('textbox', { name: /^Points/ });
    await user.type(points, '4.5');
    await user.click(within(essay).getByRole('button', { name: 'Save mark' }));
    expect(await within(essay).findByText('At most 4 points: what the question is worth')).toBeInTheDocument();
    expect(points).toHaveFocus();
    expect(await essaysOf(teacher, quiz._id, 'marked')).toEqual([]);

    await user.clear(points);
    await user.type(points, '3,5');
    await user.type(within(essay).getByRole('textbox', { name: /^Comment/ }), 'Name the bonds.');
    await user.click(within(essay).getByRole('button', { name: 'Save mark' }));
    expect(await screen.findByText('No essays await marking')).toBeInTheDocument();
    const [marked] = await essaysOf(teacher, quiz._id, 'marked');
    expect(marked?.mark).toMatchObject({ points: 3.5, comment: 'Name the bonds.' });

    await user.click(screen.getByRole('button', { name: 'Marked' }));
    expect(await screen.findByText(/Marked 3.5 \/ 4 points/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change mark' })).toBeInTheDocument();
  });

  it('says so when another teacher marked the essay meanwhile, and keeps their mark', async () => {
    const { teacher, quiz, user } = await essayAwaitingMarking();
    const essay = await screen.findByTestId('essay-to-mark');
    // The same teacher in another tab: the form on screen still has the version it was given.
    const [listed] = await essaysOf(teacher, quiz._id);
    await markEssayAs(teacher, quiz._id, listed!, 2);

    await user.type(within(essay).getByRole('textbox', { name: /^Points/ }), '4');
    await user.click(within(essay).getByRole('button', { name: 'Save mark' }));
    expect(await screen.findByText(/Another teacher marked this essay meanwhile/)).toBeInTheDocument();
    expect(await screen.findByText('No essays await marking')).toBeInTheDocument();
    const [marked] = await essaysOf(teacher, quiz._id, 'marked');
    expect(marked?.mark?.points).toBe(2);
  });
});
