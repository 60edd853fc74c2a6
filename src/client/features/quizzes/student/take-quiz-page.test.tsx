import { cleanup, screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QUIZ_BACKGROUNDS, type NewQuizPayload } from '#shared/quizzes';
import { formatDateTime } from '../../../lib/format.ts';
import { openApp } from '../../../testing/open-app.tsx';
import {
  addQuiz,
  classCodeOf,
  quizAsStudent,
  savedChoices,
  signInAs,
  signUpStudent,
  signUpTeacher,
  startQuiz,
  submitQuiz,
} from '../../../testing/server-actors.ts';
import { patience } from '../../../../server/testing/patience.ts';

/** A teacher's quiz (three questions, 10 minutes) and a student of its class, signed in here. */
async function studentWithQuiz(options: Partial<NewQuizPayload> = {}) {
  const className = `Runner-${crypto.randomUUID().slice(0, 8)}`;
  const teacher = await signUpTeacher();
  // The teacher's class first (a student registers with its code), then the quiz into it.
  const classCode = await classCodeOf(className, teacher);
  const quiz = await addQuiz(teacher, { class: className, ...options });
  const student = await signUpStudent({ classCode });
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

  it('saves and resumes every type’s answer (issue 20)', async () => {
    const { quiz, student, path } = await studentWithQuiz({
      quiz: {
        background: QUIZ_BACKGROUNDS[0],
        questions: [
          {
            type: 'multiple',
            question_text: 'Primes?',
            points: 2,
            options: [
              { text: '2', correct: true },
              { text: '4', correct: false },
              { text: '5', correct: true },
            ],
          },
          { type: 'short-text', question_text: 'Capital?', points: 1, accepted: ['Paris'] },
          { type: 'numeric', question_text: 'Pi?', points: 1, value: 3.14, tolerance: 0.01 },
        ],
      },
    });
    await startQuiz(student, quiz._id);
    const { user } = await openApp(path);
    for (let step = 0; step < 3; step += 1) {
      const question = await questionOnScreen();
      if (question === 'Primes?') {
        await user.click(screen.getByRole('checkbox', { name: '5' }));
        await user.click(screen.getByRole('checkbox', { name: '2' }));
      } else if (question === 'Capital?') {
        await user.type(screen.getByRole('textbox', { name: 'Your answer' }), 'Paris');
      } else {
        await user.type(screen.getByRole('textbox', { name: 'Your answer (a number)' }), '3,14');
      }
      if (step < 2) await user.click(screen.getByRole('button', { name: 'Next question' }));
    }
    expect(await screen.findByText('All answers saved', {}, { timeout: patience(5000) })).toBeInTheDocument();
    const saved = await savedChoices(student, quiz._id);
    // The options chosen of a multiple-answer question, in whichever order they were ticked.
    expect({ ...saved, 'Primes?': saved['Primes?']?.split('; ').sort().join('; ') }).toEqual({
      'Primes?': '2; 5',
      'Capital?': 'Paris',
      'Pi?': '3,14',
    });

    cleanup(); // reloaded
    const reloaded = await openApp(path);
    for (let step = 0; step < 3; step += 1) {
      const question = await questionOnScreen();
      if (question === 'Primes?') {
        expect(screen.getByRole('checkbox', { name: '2' })).toBeChecked();
        expect(screen.getByRole('checkbox', { name: '4' })).not.toBeChecked();
      } else if (question === 'Capital?') {
        expect(screen.getByRole('textbox', { name: 'Your answer' })).toHaveValue('Paris');
      } else {
        expect(screen.getByRole('textbox', { name: 'Your answer (a number)' })).toHaveValue('3,14');
      }
      if (step < 2) await reloaded.user.click(screen.getByRole('button', { name: 'Next question' }));
    }
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

      // Chosen with a second left, inside the debounce: no save has left yet. The countdown's
      // deadline is set from the server's answer, read in real time: on a loaded machine a read
      // can set it again a moment later, so the clock steps on until the screen says so.
      const timerReads = (text: string) => screen.queryByRole('timer')?.textContent?.includes(text) === true;
      await vi.advanceTimersByTimeAsync(10 * 60 * 1000 - 2000);
      for (let step = 0; step < 100 && !timerReads('0:01'); step += 1) await vi.advanceTimersByTimeAsync(250);
      expect(screen.getByRole('timer')).toHaveTextContent('0:01');
      await answerRightly(user);
      await vi.advanceTimersByTimeAsync(1000);
      for (let step = 0; step < 100 && timerReads('0:0'); step += 1) await vi.advanceTimersByTimeAsync(250);

      expect(
        await screen.findByRole('heading', { name: 'Quiz submitted' }, { timeout: patience(5000) }),
      ).toBeInTheDocument();
      expect(screen.getByTestId('result-score')).toHaveTextContent('1 / 3');
    });
  });

  describe('the review, by the quiz’s review options (decision 032)', () => {
    /** Each question shows what it is worth, never what it earned ("0 / 1"): that is a piece of the key. */
    function expectNoPointsPerQuestion() {
      const points = screen.getAllByTestId('review-points').map((element) => element.textContent);
      expect(points).toEqual(['1 point', '1 point', '1 point']);
    }

    /** A quiz the student started and submitted with one right answer, then opened here. */
    async function submittedReview(options: Partial<NewQuizPayload>) {
      const { quiz, student, path } = await studentWithQuiz(options);
      const started = await startQuiz(student, quiz._id);
      const math = started.quiz.questions.find((question) => question.question_text === 'What is 2 + 2?')!;
      const four = math.options!.find((option) => option.text === '4')!;
      await submitQuiz(student, quiz._id, [{ _id: math._id, response: four._id }]);
      const { attempt } = await quizAsStudent(student, quiz._id);
      if (attempt?.status !== 'submitted') throw new Error('The attempt should be submitted');
      await openApp(path);
      await screen.findByRole('heading', { name: 'Quiz submitted' });
      return attempt;
    }

    it('says when the answers will be shown, and marks no choice right or wrong before then', async () => {
      const attempt = await submittedReview({ reviewAnswers: 'after-deadline' });
      expect(
        screen.getByText(
          `Correct answers and the points of each question will be shown after the deadline, ${formatDateTime(attempt.answersVisibleAt!)}.`,
        ),
      ).toBeInTheDocument();
      expectNoPointsPerQuestion();
      expect(document.querySelectorAll('[data-review="correct"], [data-review="wrong"]')).toHaveLength(0);
      expect(document.querySelectorAll('[data-review="chosen"]')).toHaveLength(1);
      expect(screen.getByText('your answer')).toBeInTheDocument();
      // The score shows right after submitting (the default).
      expect(screen.getByTestId('result-score')).toHaveTextContent('1 / 3');
    });

    it('says the teacher chose never to show them', async () => {
      await submittedReview({ reviewAnswers: 'never' });
      expect(
        screen.getByText('Your teacher has chosen not to show the correct answers or the points of each question.'),
      ).toBeInTheDocument();
      expect(document.querySelectorAll('[data-review="correct"]')).toHaveLength(0);
      expectNoPointsPerQuestion();
      // The total still shows right after submitting (the default).
      expect(screen.getByTestId('result-score')).toHaveTextContent('1 / 3');
    });

    it('says when the score will be shown, in its place', async () => {
      const attempt = await submittedReview({ reviewAnswers: 'after-deadline', reviewScore: 'after-deadline' });
      expect(screen.getByTestId('score-notice')).toHaveTextContent(
        `Your score will be shown after the deadline, ${formatDateTime(attempt.scoreVisibleAt)}.`,
      );
      expect(screen.queryByTestId('result-score')).not.toBeInTheDocument();
      expect(screen.queryByTestId('result-accuracy')).not.toBeInTheDocument();
    });

    it('shows the key at once when the teacher chose so', async () => {
      await submittedReview({ reviewAnswers: 'after-submit' });
      expect(document.querySelectorAll('[data-review="correct"]')).toHaveLength(3);
      expect(document.querySelectorAll('[data-review="wrong"]')).toHaveLength(0);
      expect(screen.queryByTestId('answers-notice')).not.toBeInTheDocument();
      // With the key, what each question earned: one right of three.
      expect(
        screen
          .getAllByTestId('review-points')
          .map((points) => points.textContent)
          .sort(),
      ).toEqual(['0 / 1 point', '0 / 1 point', '1 / 1 point']);
    });
  });
});
