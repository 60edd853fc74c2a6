import { useLingui } from '@lingui/react/macro';
import { Check, Send } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { isAnswered, type AnswerValue } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { ResponseInput } from '../quizzes/attempt/response-input.tsx';
import { QuestionImage, QuestionText } from '../quizzes/question-text.tsx';
import { trueFalseText } from '../quizzes/question-response.ts';
import { answerMark } from './answer-marks.tsx';

type PlayerAnswerProps = {
  question: QuizQuestion;
  /** Sent, paused, or not this player's question: nothing can be chosen. */
  isLocked: boolean;
  /** The answer, as the quiz takes it (AnswerValue): sent once. */
  onAnswer(value: AnswerValue): void;
};

/**
 * A live question's answer on a phone held in one hand (issue 34): one tap answers a single choice
 * or a true-or-false question, on big buttons each with its colour, shape and text; several
 * answers are toggled, then sent; a typed answer or a matching goes through the quiz's own
 * controls (ResponseInput), then is sent.
 */
export function PlayerAnswer({ question, isLocked, onAnswer }: PlayerAnswerProps) {
  switch (question.type) {
    case 'single':
    case 'true-false':
      return <TapAnswer question={question} isLocked={isLocked} onAnswer={onAnswer} />;
    case 'multiple':
      return <MultipleAnswer question={question} isLocked={isLocked} onAnswer={onAnswer} />;
    case 'short-text':
    case 'numeric':
    case 'matching':
      return <TypedAnswer question={question} isLocked={isLocked} onAnswer={onAnswer} />;
    // Not played live (decision 066): the game skips them.
    case 'essay':
    case 'description':
      return null;
  }
}

/** One tap answers: the tapped answer stays marked once the others are locked. */
function TapAnswer({ question, isLocked, onAnswer }: PlayerAnswerProps) {
  const [tapped, setTapped] = useState<string | null>(null);
  const answers =
    question.type === 'true-false'
      ? [true, false].map((value) => ({ key: String(value), value, content: trueFalseText(value) }))
      : (question.options ?? []).map((option) => ({
          key: option._id,
          value: option._id,
          content: <OptionContent text={option.text} image={option.image} />,
        }));
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {answers.map((answer, index) => (
        <AnswerButton
          key={answer.key}
          index={index}
          disabled={isLocked}
          isTapped={isLocked && tapped === answer.key}
          onClick={() => {
            setTapped(answer.key);
            onAnswer(answer.value);
          }}
        >
          {answer.content}
        </AnswerButton>
      ))}
    </div>
  );
}

function OptionContent({ text, image }: { text: string; image?: { url: string; alt: string } | undefined }) {
  return (
    <span dir="auto" className="flex min-w-0 flex-col gap-2">
      <QuestionText text={text} className="wrap-anywhere whitespace-pre-wrap" />
      {image ? (
        <QuestionImage image={image} className="max-h-28 w-auto max-w-full rounded-md bg-surface object-contain" />
      ) : null}
    </span>
  );
}

/** A big coloured answer: its shape at the start, its text after it; `pressed` for a toggle. */
function AnswerButton({
  index,
  pressed,
  isTapped = false,
  disabled,
  onClick,
  children,
}: {
  index: number;
  pressed?: boolean;
  /** The answer sent, among the locked ones: not dimmed, and ringed. */
  isTapped?: boolean;
  disabled: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  const { Shape, fill } = answerMark(index);
  return (
    <button
      type="button"
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'flex min-h-20 w-full items-center gap-3 rounded-2xl px-4 py-3 text-start text-lg font-semibold text-white shadow-sm transition',
        'active:scale-[0.98] disabled:cursor-not-allowed',
        fill,
        (pressed || isTapped) && 'ring-4 ring-fg ring-offset-2',
        isTapped ? 'disabled:opacity-100' : 'disabled:opacity-60',
      )}
    >
      <Shape className="size-8 shrink-0" />
      <span className="min-w-0 flex-1">{children}</span>
      {pressed === undefined ? null : (
        <span
          aria-hidden="true"
          className={cn(
            'flex size-8 shrink-0 items-center justify-center rounded-full border-2 border-white',
            pressed && 'bg-white text-fg',
          )}
        >
          {pressed ? <Check className="size-5" /> : null}
        </span>
      )}
    </button>
  );
}

function SubmitAnswer({ disabled }: { disabled: boolean }) {
  const { t } = useLingui();
  return (
    <Button type="submit" disabled={disabled} size="custom" className="min-h-14 w-full px-4 py-2.5 text-base">
      <Send className="size-5 rtl:-scale-x-100" aria-hidden="true" />
      {t`Submit answer`}
    </Button>
  );
}

function MultipleAnswer({ question, isLocked, onAnswer }: PlayerAnswerProps) {
  const [chosen, setChosen] = useState<string[]>([]);
  const { t } = useLingui();
  const options = question.options ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // In the options' order, as the quiz runner sends them.
    const ordered = options.map((option) => option._id).filter((id) => chosen.includes(id));
    if (ordered.length > 0) onAnswer(ordered);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <p className="text-sm font-medium text-muted">{t`Select all that apply, then submit.`}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {options.map((option, index) => {
          const isChosen = chosen.includes(option._id);
          return (
            <AnswerButton
              key={option._id}
              index={index}
              pressed={isChosen}
              disabled={isLocked}
              onClick={() =>
                setChosen((current) =>
                  isChosen ? current.filter((id) => id !== option._id) : [...current, option._id],
                )
              }
            >
              <OptionContent text={option.text} image={option.image} />
            </AnswerButton>
          );
        })}
      </div>
      <SubmitAnswer disabled={isLocked || chosen.length === 0} />
    </form>
  );
}

function TypedAnswer({ question, isLocked, onAnswer }: PlayerAnswerProps) {
  const [value, setValue] = useState<AnswerValue | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value !== null && isAnswered(value)) onAnswer(typeof value === 'string' ? value.trim() : value);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <fieldset disabled={isLocked} className="min-w-0">
        <ResponseInput question={question} value={value} onAnswer={(next) => setValue(next)} isSubmitting={isLocked} />
      </fieldset>
      <SubmitAnswer disabled={isLocked || value === null || !isAnswered(value)} />
    </form>
  );
}
