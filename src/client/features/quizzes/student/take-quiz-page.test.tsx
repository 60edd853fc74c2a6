import { cleanup, screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openApp } from '../../../testing/open-app.tsx';
import {
  addQuiz,
  savedChoices,
  signInAs,
  signUpStudent,
  signUpTeacher,
  startQuiz,
} from '../../../testing/server-actors.ts';

/** A teacher's quiz (three questions, 10 minutes) and a student of its class, signed in here. */
async function studentWithQuiz() {
  const className = `Runner-${crypto.randomUUID().slice(0, 8)}`;
  const teacher = await signUpTeacher();
  const quiz = await addQuiz(teacher, { class: className });
  const student = await signUpStudent({ class: className });
  signInAs(student, 'student');
  return { quiz, student, path: `/dashboard/student/quiz/${quiz._id}` };
}

/** The right answer of each question of buildNewQuiz(); a student sees them in an order of their own. */
const RIGHT_ANSWERS: Record<string, string> = {
  'What is 2 + 2?': '4',
  'What is the capital of France?': 'Paris',
  'Which is a prime number?': '7',
};

/** The question on screen, once it is there. */
const questionOnScreen = async () => (await screen.findByTestId('question-text')).textContent ?? '';

/** Chooses the right answer of the question on screen; returns the question. */
async function answerRightly(user: UserEvent) {
  const question = await questionOnScreen();
  await user.click(screen.getByRole('radio', { name: RIGHT_ANSWERS[question] }));
  return question;
}

/** The attempt screen of a quiz the student has started. */
async function attemptInProgress() {
  const { quiz, student, path } = await studentWithQuiz();
  await startQuiz(student, quiz._id);
  return { quiz, student, path, ...(await openApp(path)) };
}

describe('the quiz attempt screen', () => {
  it('saves a choice as it is made, and says so', async () => {
    const { quiz, student, user } = await attemptInProgress();
    const first = await answerRightly(user);

    expect(screen.getByRole('radio', { name: RIGHT_ANSWERS[first] })).toBeChecked();
    expect(await screen.findByText('All answers saved')).toBeInTheDocument();
    expect(await savedChoices(student, quiz._id)).toEqual({
      ...Object.fromEntries(Object.keys(RIGHT_ANSWERS).map((text) => [text, null])),
      [first]: RIGHT_ANSWERS[first],
    });
  });

  it('shows the saved answers when the attempt is opened again', async () => {
    const { path, user } = await attemptInProgress();
    const first = await answerRightly(user);
    await user.click(screen.getByRole('button', { name: 'Next question' }));
    const second = await answerRightly(user);
    expect(await screen.findByText('All answers saved')).toBeInTheDocument();

    cleanup(); // the tab is reloaded: nothing of this page's memory is left
    const reloaded = await openApp(path);

    expect(await questionOnScreen()).toBe(first);
    expect(screen.getByRole('radio', { name: RIGHT_ANSWERS[first] })).toBeChecked();
    await reloaded.user.click(screen.getByRole('button', { name: 'Next question' }));
    expect(screen.getByRole('radio', { name: RIGHT_ANSWERS[second] })).toBeChecked();
    await reloaded.user.click(screen.getByRole('button', { name: 'Next question' }));
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked();
    expect(screen.getByText('1 unanswered question')).toBeInTheDocument();
  });

  describe('when the time runs out', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('submits by itself, with the choice made just before', async () => {
      const { path } = await studentWithQuiz();
      const { user } = await openApp(path);
      // The countdown's clock only: requests, debouncing and React keep real time.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
      await user.click(await screen.findByRole('button', { name: 'Start quiz' }));
      expect(await screen.findByRole('timer')).toHaveTextContent('10:00');

      // Chosen with a second left, inside the debounce: no save has left yet.
      await vi.advanceTimersByTimeAsync(10 * 60 * 1000 - 1000);
      expect(screen.getByRole('timer')).toHaveTextContent('0:01');
      await answerRightly(user);
      await vi.advanceTimersByTimeAsync(1000);

      expect(await screen.findByRole('heading', { name: 'Quiz submitted' }, { timeout: 5000 })).toBeInTheDocument();
      expect(screen.getByTestId('result-score')).toHaveTextContent('1 / 3');
    });
  });
});
