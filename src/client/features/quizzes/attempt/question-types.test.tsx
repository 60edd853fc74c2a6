import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderTranslated as render } from '../../../testing/render-translated.tsx';
import type { QuizQuestion } from '#shared/quizzes';
import type { Responses } from '../question-response.ts';
import { QuizResult } from './quiz-result.tsx';
import { QuizRunner } from './quiz-runner.tsx';
import { presentWithKey, previewQuestions } from './preview-page.tsx';
import type { QuizPreview } from '../preview-storage.ts';

/** One question of each type, as a student sees it during an attempt (no key). */
const QUESTIONS: QuizQuestion[] = [
  {
    _id: 'single',
    type: 'single',
    question_text: 'Half of 1?',
    points: 1,
    options: [
      { _id: 'o1', text: '1/2' },
      { _id: 'o2', text: '1/3' },
    ],
  },
  {
    _id: 'multiple',
    type: 'multiple',
    question_text: 'Primes?',
    points: 2,
    scoring: 'partial',
    options: [
      { _id: 'o1', text: '2' },
      { _id: 'o2', text: '4' },
      { _id: 'o3', text: '5' },
    ],
  },
  { _id: 'truth', type: 'true-false', question_text: 'Is 0 even?', points: 1 },
  { _id: 'short', type: 'short-text', question_text: 'Capital of France?', points: 1.5 },
  { _id: 'number', type: 'numeric', question_text: 'Pi to 2 places', points: 0.5 },
];

type Saved = { questionId: string; value: unknown; isTyping: boolean };

/** The runner with its answers kept as the attempt screen keeps them; every onAnswer recorded. */
function Runner({ initial = {}, saved }: { initial?: Responses; saved: Saved[] }) {
  const [answers, setAnswers] = useState<Responses>(initial);
  return (
    <QuizRunner
      title="Types"
      background="/bg.png"
      questions={QUESTIONS}
      answers={answers}
      onAnswer={(questionId, value, isTyping) => {
        saved.push({ questionId, value, isTyping });
        setAnswers((current) => ({ ...current, [questionId]: value }));
      }}
      secondsLeft={600}
      onSubmit={() => {}}
      isSubmitting={false}
    />
  );
}

const next = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByRole('button', { name: 'Next question' }));

describe('the quiz runner, by question type (issue 20)', () => {
  it('answers each type with its control and reports each answer', async () => {
    const user = userEvent.setup();
    const saved: Saved[] = [];
    render(<Runner saved={saved} />);

    expect(screen.getByText('Question 1 of 5 · 1 point')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '1/2' }));
    await next(user);

    expect(screen.getByText('Question 2 of 5 · 2 points')).toBeInTheDocument();
    expect(screen.getByText('Select all that apply')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: '5' }));
    await user.click(screen.getByRole('checkbox', { name: '2' }));
    await user.click(screen.getByRole('checkbox', { name: '5' }));
    await user.click(screen.getByRole('checkbox', { name: '5' }));
    await next(user);

    await user.click(screen.getByRole('radio', { name: 'False' }));
    await next(user);

    const short = screen.getByRole('textbox', { name: 'Your answer' });
    expect(short).toHaveAttribute('maxlength', '200');
    await user.type(short, 'Paris');
    await next(user);

    const number = screen.getByRole('textbox', { name: 'Your answer (a number)' });
    expect(number).toHaveAttribute('inputmode', 'decimal');
    await user.type(number, 'abc');
    expect(number).toHaveAccessibleDescription('This is not a number: use digits, with “.” or “,” for decimals.');
    await user.clear(number);
    await user.type(number, '3,14');
    expect(number).toHaveAccessibleDescription('Use “.” or “,” for decimals.');
    expect(screen.queryByText(/unanswered/)).not.toBeInTheDocument();

    const last = (questionId: string) => saved.filter((entry) => entry.questionId === questionId).at(-1);
    expect(last('single')).toEqual({ questionId: 'single', value: 'o1', isTyping: false });
    // In the options' order, whatever order they were ticked in.
    expect(last('multiple')).toEqual({ questionId: 'multiple', value: ['o1', 'o3'], isTyping: false });
    expect(last('truth')).toEqual({ questionId: 'truth', value: false, isTyping: false });
    expect(last('short')).toEqual({ questionId: 'short', value: 'Paris', isTyping: true });
    expect(last('number')).toEqual({ questionId: 'number', value: '3,14', isTyping: true });
  });

  it('shows saved answers when an attempt is resumed', async () => {
    const user = userEvent.setup();
    render(
      <Runner
        saved={[]}
        initial={{ single: 'o2', multiple: ['o1', 'o3'], truth: true, short: 'Rome', number: '2.5' }}
      />,
    );
    expect(screen.getByRole('radio', { name: '1/3' })).toBeChecked();
    await next(user);
    expect(screen.getByRole('checkbox', { name: '2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '4' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: '5' })).toBeChecked();
    await next(user);
    expect(screen.getByRole('radio', { name: 'True' })).toBeChecked();
    await next(user);
    expect(screen.getByRole('textbox', { name: 'Your answer' })).toHaveValue('Rome');
    await next(user);
    expect(screen.getByRole('textbox', { name: 'Your answer (a number)' })).toHaveValue('2.5');
  });
});

/** The questions with the key and the student's answers, as the review shows them. */
const REVIEWED: QuizQuestion[] = [
  {
    ...QUESTIONS[0]!,
    options: [
      { _id: 'o1', text: '1/2', correct: true },
      { _id: 'o2', text: '1/3', correct: false },
    ],
    response: 'o2',
    earnedPoints: 0,
  },
  {
    ...QUESTIONS[1]!,
    options: [
      { _id: 'o1', text: '2', correct: true },
      { _id: 'o2', text: '4', correct: false },
      { _id: 'o3', text: '5', correct: true },
    ],
    response: ['o1'],
    earnedPoints: 1,
  },
  { ...QUESTIONS[2]!, correct: true, response: true, earnedPoints: 1 },
  { ...QUESTIONS[3]!, accepted: ['Paris', 'Lutetia'], response: 'rome', earnedPoints: 0 },
  { ...QUESTIONS[4]!, value: 3.14, tolerance: 0.01, response: '3,14', earnedPoints: 0.5 },
];

const reviewOf = (index: number) => screen.getAllByTestId('review-question')[index]!;
const marks = (element: HTMLElement) =>
  [...element.querySelectorAll('[data-review]')].map((item) => item.getAttribute('data-review'));

/** A question with an image, and an option with one, as a student gets it during the attempt. */
const PICTURED: QuizQuestion = {
  _id: 'pictured',
  type: 'single',
  question_text: 'Which shape?',
  points: 1,
  image: { url: '/signed/q.png', alt: 'A red square' },
  options: [
    { _id: 'o1', text: 'Square', image: { url: '/signed/o1.png', alt: 'Four equal sides' } },
    { _id: 'o2', text: 'Circle' },
  ],
};

describe('the runner shows images', () => {
  it('shows a question’s image and its options’ images with their descriptions', () => {
    const withImages = PICTURED;
    render(
      <QuizRunner
        title="Shapes"
        background="/bg.png"
        questions={[withImages]}
        answers={{}}
        onAnswer={() => {}}
        secondsLeft={600}
        onSubmit={() => {}}
        isSubmitting={false}
      />,
    );
    expect(screen.getByRole('img', { name: 'A red square' })).toHaveAttribute('src', '/signed/q.png');
    const square = screen.getByRole('radio', { name: /Square/ });
    expect(within(square.closest('label')!).getByRole('img', { name: 'Four equal sides' })).toHaveAttribute(
      'src',
      '/signed/o1.png',
    );
    expect(screen.getAllByRole('img')).toHaveLength(2);
  });
});

describe('the review shows images', () => {
  it('shows a question’s image and an option’s image after submitting', () => {
    // After submitting, with the key and the points.
    const pictured: QuizQuestion = {
      ...PICTURED,
      options: PICTURED.options!.map((option) => ({ ...option, correct: option._id === 'o1' })),
      response: 'o1',
      earnedPoints: 1,
    };
    render(
      <QuizResult title="Shapes" score={1} totalPoints={1} accuracy="100" endedBy="submitted" questions={[pictured]} />,
    );
    expect(within(reviewOf(0)).getByRole('img', { name: 'A red square' })).toHaveAttribute('src', '/signed/q.png');
    expect(within(reviewOf(0)).getByRole('img', { name: 'Four equal sides' })).toHaveAttribute('src', '/signed/o1.png');
  });
});

describe('the review, by question type', () => {
  it('shows chosen against correct, earned points and the key, per type', () => {
    render(
      <QuizResult title="Types" score={3} totalPoints={6} accuracy="50" endedBy="submitted" questions={REVIEWED} />,
    );
    expect(screen.getByTestId('result-score')).toHaveTextContent('3 / 6');
    // Single: the right option green, the wrong choice red.
    expect(marks(reviewOf(0))).toEqual(['correct', 'wrong']);
    expect(within(reviewOf(0)).getByTestId('review-points')).toHaveTextContent('0 / 1 point');
    // Multiple, partial credit: both right options green, one of them chosen; half the points.
    expect(marks(reviewOf(1))).toEqual(['correct', 'other', 'correct']);
    expect(within(reviewOf(1)).getByTestId('review-points')).toHaveTextContent('1 / 2 points');
    // True/false: True is right and chosen.
    expect(marks(reviewOf(2))).toEqual(['correct', 'other']);
    expect(within(reviewOf(2)).getByText('correct answer, your answer')).toBeInTheDocument();
    // Short text: the typed answer (wrong) and the accepted ones.
    expect(marks(reviewOf(3))).toEqual(['wrong', 'key']);
    expect(within(reviewOf(3)).getByText('Paris / Lutetia')).toBeInTheDocument();
    // Number: value ± tolerance.
    expect(marks(reviewOf(4))).toEqual(['correct', 'key']);
    expect(within(reviewOf(4)).getByText('3.14 ± 0.01')).toBeInTheDocument();
    expect(within(reviewOf(4)).getByTestId('review-points')).toHaveTextContent('0.5 / 0.5 points');
  });

  it('marks nothing right or wrong and shows no key when the server sent none', () => {
    const withoutKey = QUESTIONS.map((question, index) => ({
      ...question,
      response: REVIEWED[index]!.response ?? null,
    }));
    render(
      <QuizResult
        title="Types"
        totalPoints={6}
        endedBy="submitted"
        questions={withoutKey}
        review={{ answersVisibleAt: null, scoreVisibleAt: new Date(Date.now() + 86_400_000).toISOString() }}
      />,
    );
    expect(
      document.querySelectorAll('[data-review="correct"], [data-review="wrong"], [data-review="key"]'),
    ).toHaveLength(0);
    expect(within(reviewOf(3)).getByText('rome')).toBeInTheDocument();
    expect(screen.queryByText('Paris / Lutetia')).not.toBeInTheDocument();
  });

  it('shows no question’s earned points without its key, and says when they come', () => {
    // Points earned but no key (as a server before issue 30 point 1 sent them): a true-false
    // question's "0 / 1" would be its answer, so the page keeps them for the key.
    const withoutKey = QUESTIONS.map((question, index) => ({
      ...question,
      response: REVIEWED[index]!.response ?? null,
      earnedPoints: REVIEWED[index]!.earnedPoints ?? 0,
    }));
    const visibleAt = new Date(Date.now() + 86_400_000).toISOString();
    render(
      <QuizResult
        title="Types"
        score={3}
        totalPoints={6}
        accuracy="50"
        endedBy="submitted"
        questions={withoutKey}
        review={{ answersVisibleAt: visibleAt, scoreVisibleAt: new Date().toISOString() }}
      />,
    );
    expect(screen.getByTestId('result-score')).toHaveTextContent('3 / 6');
    for (const points of screen.getAllByTestId('review-points')) expect(points).not.toHaveTextContent('/');
    expect(screen.getByTestId('answers-notice')).toHaveTextContent(
      'Correct answers and the points of each question will be shown after the deadline',
    );
    expect(document.querySelectorAll('[data-review="correct"], [data-review="wrong"]')).toHaveLength(0);
  });
});

describe('the preview', () => {
  const preview = {
    title: 'Preview',
    subject: 'Maths',
    quiz: {
      background: '/bg.png',
      questions: [
        {
          type: 'single',
          question_text: 'Half?',
          points: 1,
          options: [
            { text: '1/2', correct: true },
            { text: '1/3', correct: false },
          ],
        },
        {
          type: 'multiple',
          question_text: 'Primes?',
          points: 2,
          scoring: 'partial',
          options: [
            { text: '2', correct: true },
            { text: '4', correct: false },
            { text: '5', correct: true },
          ],
        },
        { type: 'numeric', question_text: 'Pi?', points: 1, value: 3.14, tolerance: 0.01 },
        // Half written: left out of the preview.
        { type: 'short-text', question_text: 'Capital?', points: 1, accepted: [] },
        // A quiz saved in SPEC §3's shape reads as single choice.
        { question_text: 'Legacy?', options: ['yes', 'no'], answer: 'yes' },
      ],
    },
  } as unknown as QuizPreview;

  it('gives local ids, leaves out what the schema refuses, and scores with the shared rules', () => {
    const questions = previewQuestions(preview);
    expect(questions.map((question) => question.question_text).sort()).toEqual(['Half?', 'Legacy?', 'Pi?', 'Primes?']);
    expect(new Set(questions.map((question) => question._id)).size).toBe(4);
    const primes = questions.find((question) => question.type === 'multiple')!;
    if (primes.type !== 'multiple') throw new Error('expected the multiple question');
    const two = primes.options.find((option) => option.text === '2')!;
    const pi = questions.find((question) => question.type === 'numeric')!;
    // Partial credit: one of two right options, no wrong one: half the points.
    expect(presentWithKey(primes, [two._id])).toMatchObject({ earnedPoints: 1, response: [two._id] });
    expect(presentWithKey(pi, '3,141')).toMatchObject({ earnedPoints: 1, value: 3.14, tolerance: 0.01 });
    expect(presentWithKey(pi, '3.2')).toMatchObject({ earnedPoints: 0 });
  });
});

describe('essays (decision 046)', () => {
  const essay: QuizQuestion = { _id: 'essay', type: 'essay', question_text: 'Why does ice float?', points: 4 };

  it('are written in a long text box, saved as typing, with the room left counted', async () => {
    const user = userEvent.setup();
    const saved: { value: unknown; isTyping: boolean }[] = [];
    function EssayRunner() {
      const [answers, setAnswers] = useState<Responses>({});
      return (
        <QuizRunner
          title="Essay"
          background="/bg.png"
          questions={[essay]}
          answers={answers}
          onAnswer={(questionId, value, isTyping) => {
            saved.push({ value, isTyping });
            setAnswers((current) => ({ ...current, [questionId]: value }));
          }}
          secondsLeft={600}
          onSubmit={() => {}}
          isSubmitting={false}
        />
      );
    }
    render(<EssayRunner />);
    const box = screen.getByRole('textbox', { name: 'Your answer' });
    expect(box.tagName).toBe('TEXTAREA');
    expect(box).toHaveAttribute('maxLength', '5000');
    expect(box).toHaveAccessibleDescription(/Your teacher marks this answer\. 5,000 of 5,000 characters left\./);
    await user.type(box, 'Less dense');
    expect(saved.at(-1)).toEqual({ value: 'Less dense', isTyping: true });
    expect(box).toHaveAccessibleDescription(/4,990 of 5,000 characters left/);
  });

  it('in the review: awaiting marking with the points so far, then the mark and the teacher’s comment', () => {
    const review = { answersVisibleAt: new Date().toISOString(), scoreVisibleAt: new Date().toISOString() };
    const { unmount } = render(
      <QuizResult
        title="Essay"
        totalPoints={5}
        endedBy="submitted"
        review={{ ...review, awaitingMarking: true, scoreSoFar: 1 }}
        questions={[{ ...essay, response: 'Less dense.', awaitingMarking: true }]}
      />,
    );
    expect(screen.getByTestId('score-notice')).toHaveTextContent(
      'Awaiting marking: your teacher marks your written answers, then your score is shown. Points so far: 1 of 5.',
    );
    expect(screen.getByText('Awaiting marking by your teacher')).toBeInTheDocument();
    expect(screen.getByTestId('review-points')).toHaveTextContent('4 points');
    unmount();

    render(
      <QuizResult
        title="Essay"
        score={4.5}
        accuracy="90"
        totalPoints={5}
        endedBy="submitted"
        review={review}
        questions={[{ ...essay, response: 'Less dense.', earnedPoints: 3.5, comment: 'Name the bonds.' }]}
      />,
    );
    expect(screen.getByTestId('result-score')).toHaveTextContent('4.5 / 5');
    expect(screen.getByTestId('review-points')).toHaveTextContent('3.5 / 4 points');
    expect(screen.getByText('Name the bonds.')).toBeInTheDocument();
    expect(screen.queryByText('Awaiting marking by your teacher')).not.toBeInTheDocument();
  });
});
