import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ArrowLeft,
  Check,
  EyeOff,
  MonitorUp,
  Pause,
  Play,
  Plus,
  SkipForward,
  Square,
  TextCursorInput,
  WifiOff,
  X,
} from 'lucide-react';
import { useCallback, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Link } from 'react-router';
import { LIVE_GAME_LIMITS } from '#shared/live-game-basics';
import type { LiveHostCommandInput, OpenedQuestion } from '#shared/live-games';
import { Button } from '../../components/ui/button.tsx';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatCountdown, formatNumber } from '../../lib/format.ts';
import { trueFalseText } from '../quizzes/question-response.ts';
import { QuestionImage, QuestionText } from '../quizzes/question-text.tsx';
import { DistributionChart, Leaderboard, Podium } from './host-results.tsx';
import { ALMOST_UP_MS, announcementOf, hostEndText } from './host-texts.ts';
import { answerMark } from './answer-marks.tsx';
import type { LiveSnapshot } from './live-session.ts';
import { remainingMs } from './live-state.ts';
import { liveGameReportPath } from './play-live-path.ts';

/**
 * The host's page of a live game (issue 34 point 2), made for a projector: the lobby with the
 * join address, PIN and QR code, each question with its countdown and controls, the answers'
 * spread and the top five after it, the podium at the end. A pure view of the session's snapshot:
 * every button is a command of the protocol (decision 066), sent by the page that holds the
 * session (host-page.tsx).
 */

export type HostViewProps = {
  snapshot: LiveSnapshot;
  /** This page's clock, ticking while a question is open. */
  now: number;
  /** Where students join (`${origin}/live`). */
  joinUrl: string;
  /** The QR code of the join address with the PIN (drawn by the page; none in tests). */
  qrCode?: ReactNode;
  onCommand(command: LiveHostCommandInput): void;
  /** The projector shows only how many typed answers were right and wrong, not their text (this page's choice). */
  typedAnswersHidden?: boolean;
  onTypedAnswersHiddenChange?(hidden: boolean): void;
  /** Another screen took the host's seat: take it back on this one (a new session). */
  onTakeBack?(): void;
  /**
   * Move the keyboard's focus to the screen's heading when it first shows: after "Take it back
   * here", whose button went away with the old screen, so the focus is not left on the page's body.
   */
  focusHeading?: boolean;
};

/**
 * A ref that moves the focus to its element the first time one shows while `isWanted`: the
 * screen's heading once the game is back (or once it is known not to be).
 */
function useFocusOnce(isWanted: boolean) {
  const isDone = useRef(false);
  return useCallback(
    (element: HTMLElement | null) => {
      if (!element || !isWanted || isDone.current) return;
      isDone.current = true;
      element.focus({ preventScroll: true });
    },
    [isWanted],
  );
}

/** A projector's on/off control that is on (names hidden…): plain to see from the back of the room. */
const PRESSED_TOGGLE = 'aria-pressed:border-brand-700 aria-pressed:bg-brand-700 aria-pressed:text-white';

export const analyticsPath = (quizId: string) => `/dashboard/teacher/quiz-analytics/${encodeURIComponent(quizId)}`;

export function HostView({
  snapshot,
  now,
  joinUrl,
  qrCode,
  onCommand,
  typedAnswersHidden = false,
  onTypedAnswersHiddenChange,
  onTakeBack,
  focusHeading = false,
}: HostViewProps) {
  const { t } = useLingui();
  const headingRef = useFocusOnce(focusHeading);
  const { game, state, connection } = snapshot;

  if (connection === 'ended' && isTakenElsewhere(snapshot.end) && state !== 'ended') {
    return <TakenElsewhere end={snapshot.end!} onTakeBack={onTakeBack} headingRef={headingRef} />;
  }
  if (connection === 'ended' && (state !== 'ended' || !snapshot.podium)) {
    return (
      <section className="mx-auto flex max-w-xl flex-col gap-4" aria-labelledby="live-ended-heading">
        <h1 id="live-ended-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-fg outline-none">
          <Trans>The game is not available</Trans>
        </h1>
        <p role="alert" className="text-lg text-fg">
          {snapshot.end ? hostEndText(snapshot.end) : t`The connection to the game was lost.`}
        </p>
        <Link
          to={game ? analyticsPath(game.quiz._id) : '/dashboard/teacher/all-quiz'}
          className={cn(buttonVariants({ variant: 'secondary' }), 'self-start')}
        >
          <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          {game ? <Trans>Back to the quiz</Trans> : <Trans>Back to your quizzes</Trans>}
        </Link>
      </section>
    );
  }
  if (!game || !state) {
    return (
      <LoadingStatus className="justify-center py-16 text-lg">
        <Trans>Opening the game…</Trans>
      </LoadingStatus>
    );
  }

  const quizTitle = game.quiz.title;
  const className = game.class.name;
  const isLive = connection === 'live';
  // The server closes every socket of a game once it ends (GAME_ENDED): the podium says so already.
  const isOverAndClosed = state === 'ended' && snapshot.end?.kind === 'closed' && snapshot.end.reason === 'GAME_ENDED';
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1
            ref={headingRef}
            tabIndex={-1}
            className="text-2xl font-bold wrap-anywhere text-fg outline-none lg:text-3xl"
          >
            {quizTitle}
          </h1>
          <p className="text-muted">
            <Trans>
              Live game with <bdi>{className}</bdi>
            </Trans>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="secondary"
            size="sm"
            aria-pressed={snapshot.namesHidden}
            className={PRESSED_TOGGLE}
            disabled={!isLive}
            onClick={() => onCommand({ type: 'hide-names', hidden: !snapshot.namesHidden })}
          >
            <EyeOff className="size-4" aria-hidden="true" />
            <Trans>Hide names</Trans>
          </Button>
          {onTypedAnswersHiddenChange ? (
            <Button
              variant="secondary"
              size="sm"
              aria-pressed={typedAnswersHidden}
              className={PRESSED_TOGGLE}
              onClick={() => onTypedAnswersHiddenChange(!typedAnswersHidden)}
            >
              <TextCursorInput className="size-4" aria-hidden="true" />
              <Trans>Hide typed answers</Trans>
            </Button>
          ) : null}
          {state === 'ended' ? null : <EndGameButton isDisabled={!isLive} onEnd={() => onCommand({ type: 'end' })} />}
        </div>
      </header>
      {connection === 'reconnecting' ? (
        <p
          role="status"
          className="flex items-center gap-2 rounded-lg border border-warning-line bg-warning-soft p-3 font-semibold text-warning"
        >
          <WifiOff className="size-5 shrink-0" aria-hidden="true" />
          <Trans>Reconnecting…</Trans>
        </p>
      ) : null}
      {connection === 'ended' && !isOverAndClosed ? (
        <p role="status" className="rounded-lg border border-line bg-surface-muted p-3 text-fg">
          {snapshot.end ? hostEndText(snapshot.end) : null}
        </p>
      ) : null}
      <LiveAnnouncer snapshot={snapshot} now={now} />
      {state === 'lobby' ? (
        <HostLobby snapshot={snapshot} joinUrl={joinUrl} qrCode={qrCode} isLive={isLive} onCommand={onCommand} />
      ) : (state === 'question-open' || state === 'paused') && snapshot.question ? (
        <HostQuestion
          snapshot={snapshot}
          question={snapshot.question}
          now={now}
          isLive={isLive}
          onCommand={onCommand}
        />
      ) : state === 'question-closed' && snapshot.closed ? (
        <HostClosed snapshot={snapshot} isLive={isLive} onCommand={onCommand} typedAnswersHidden={typedAnswersHidden} />
      ) : state === 'ended' ? (
        <section aria-labelledby="live-podium-heading" className="flex flex-col gap-6">
          <h2 id="live-podium-heading" className="text-center text-3xl font-bold text-fg">
            <Trans>The game is over</Trans>
          </h2>
          <Podium podium={snapshot.podium ?? []} />
          {/* The game's own report (review of issue 34): the quiz's analytics list attempts, and a
              game's results sit at their end, behind a fold. */}
          <Link
            to={liveGameReportPath(game.quiz._id, game._id)}
            className={cn(buttonVariants({ variant: 'secondary' }), 'self-center')}
          >
            <Trans>See the game's report</Trans>
          </Link>
        </section>
      ) : (
        <LoadingStatus>
          <Trans>Opening the game…</Trans>
        </LoadingStatus>
      )}
    </div>
  );
}

/** The host's seat went to another page or computer of theirs (the room layer's REPLACED). */
const isTakenElsewhere = (end: LiveSnapshot['end']) => end?.kind === 'closed' && end.reason === 'REPLACED';

/**
 * The game goes on on another screen of this teacher: say so, and offer to take it back here, which
 * joins again as the host and, in turn, lets that other screen know it was taken.
 */
function TakenElsewhere({
  end,
  onTakeBack,
  headingRef,
}: {
  end: NonNullable<LiveSnapshot['end']>;
  onTakeBack?(): void;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4" aria-labelledby="live-taken-heading">
      <MonitorUp className="size-12 text-brand-600" aria-hidden="true" />
      <h1 id="live-taken-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-fg outline-none">
        <Trans>The game is on another screen</Trans>
      </h1>
      <p role="alert" className="text-lg text-fg">
        {hostEndText(end)}
      </p>
      <div className="flex flex-wrap gap-2">
        {onTakeBack ? (
          <Button onClick={onTakeBack}>
            <MonitorUp className="size-4" aria-hidden="true" />
            <Trans>Take it back here</Trans>
          </Button>
        ) : null}
        <Link to="/dashboard/teacher/all-quiz" className={buttonVariants({ variant: 'secondary' })}>
          <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          <Trans>Back to your quizzes</Trans>
        </Link>
      </div>
    </section>
  );
}

/** Says a question opened, time almost up, a question closed, the game over: once each, as it happens. */
function LiveAnnouncer({ snapshot, now }: { snapshot: LiveSnapshot; now: number }) {
  return (
    <p aria-live="assertive" aria-atomic="true" className="sr-only" data-testid="live-announcer">
      {announcementOf(snapshot, now)}
    </p>
  );
}

function EndGameButton({ isDisabled, onEnd }: { isDisabled: boolean; onEnd(): void }) {
  const [isAsking, setIsAsking] = useState(false);
  const { t } = useLingui();
  return (
    <>
      <Button variant="danger" size="sm" disabled={isDisabled} onClick={() => setIsAsking(true)}>
        <Square className="size-4" aria-hidden="true" />
        <Trans>End game</Trans>
      </Button>
      {isAsking ? (
        <ConfirmDialog
          title={t`End the game now?`}
          description={t`The open question closes and everyone sees the podium. The game cannot go on afterwards.`}
          confirmLabel={t`End game`}
          widthClassName="w-[min(28rem,calc(100%-2rem))]"
          onConfirm={onEnd}
          onClose={() => setIsAsking(false)}
        />
      ) : null}
    </>
  );
}

type PartProps = { snapshot: LiveSnapshot; isLive: boolean; onCommand(command: LiveHostCommandInput): void };

function HostLobby({
  snapshot,
  joinUrl,
  qrCode,
  isLive,
  onCommand,
}: PartProps & { joinUrl: string; qrCode: ReactNode }) {
  const { t } = useLingui();
  const pin = snapshot.game?.pin ?? '';
  const players = snapshot.players;
  const { playerCount } = snapshot;
  const count = plural(playerCount, { one: '# player', other: '# players' });
  const roster = (
    <ul className="flex flex-wrap gap-2" aria-label={t`Players`}>
      {players.map((player) => {
        const name = player.name;
        return (
          <li
            key={player._id}
            className="flex items-center gap-1 rounded-full border border-line bg-surface py-1 ps-4 pe-1 text-lg"
          >
            <bdi className="font-semibold wrap-anywhere text-fg">{name}</bdi>
            <button
              type="button"
              disabled={!isLive}
              onClick={() => onCommand({ type: 'remove-player', studentId: player._id })}
              className="rounded-full p-1.5 text-muted hover:bg-danger-soft hover:text-danger disabled:cursor-not-allowed"
              aria-label={t`Remove ${name}`}
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        );
      })}
    </ul>
  );
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="live-join-heading"
        className="grid items-center gap-6 rounded-2xl bg-surface-inverse p-6 text-fg-inverse lg:grid-cols-[1fr_auto]"
      >
        <div className="flex min-w-0 flex-col gap-4">
          <h2 id="live-join-heading" className="text-xl font-semibold text-fg-inverse-muted">
            <Trans>Join on your phone</Trans>
          </h2>
          <p className="flex flex-col gap-1">
            <span className="text-fg-inverse-muted">
              <Trans>Go to</Trans>
            </span>
            <span dir="ltr" className="text-2xl font-bold wrap-anywhere sm:text-4xl">
              {joinUrl}
            </span>
          </p>
          <p className="flex flex-col gap-1">
            <span className="text-fg-inverse-muted">
              <Trans>Game PIN</Trans>
            </span>
            <span
              data-testid="live-pin"
              dir="ltr"
              className="self-start text-5xl font-black tracking-[0.2em] tabular-nums sm:text-7xl"
            >
              {pin}
            </span>
          </p>
        </div>
        {qrCode ? <div className="justify-self-center rounded-xl bg-white p-3">{qrCode}</div> : null}
      </section>

      <div className="flex flex-wrap items-end justify-between gap-4">
        <QuestionSecondsForm seconds={snapshot.questionSeconds} isLive={isLive} onCommand={onCommand} />
        <div className="flex flex-col items-end gap-1">
          <Button
            size="lg"
            disabled={!isLive || snapshot.playerCount === 0}
            aria-describedby={snapshot.playerCount === 0 ? 'live-start-hint' : undefined}
            onClick={() => onCommand({ type: 'start' })}
          >
            <Play className="size-5" aria-hidden="true" />
            <Trans>Start</Trans>
          </Button>
          {snapshot.playerCount === 0 ? (
            <p id="live-start-hint" className="text-sm text-muted">
              <Trans>Waiting for the first player…</Trans>
            </p>
          ) : null}
        </div>
      </div>

      <section aria-labelledby="live-players-heading" className="flex flex-col gap-3">
        <h2 id="live-players-heading" className="text-lg font-semibold text-fg" aria-live="polite">
          {count}
        </h2>
        {players.length === 0 ? (
          <p className="text-muted">
            <Trans>No one has joined yet.</Trans>
          </p>
        ) : snapshot.namesHidden ? (
          // Names stay off the projector; the host opens the list to remove someone.
          <details className="rounded-lg border border-line bg-surface p-3">
            <summary className="cursor-pointer font-semibold text-fg">
              <Trans>Show the names (to remove a player)</Trans>
            </summary>
            <div className="mt-3">{roster}</div>
          </details>
        ) : (
          roster
        )}
      </section>
    </div>
  );
}

/** The lobby's seconds per question: sent when changed (only in the lobby, decision 066). */
function QuestionSecondsForm({ seconds, isLive, onCommand }: Omit<PartProps, 'snapshot'> & { seconds: number }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const value = typed ?? String(seconds);
  const min = LIVE_GAME_LIMITS.questionSecondsMin;
  const max = LIVE_GAME_LIMITS.questionSecondsMax;
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = Number(value);
    if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
      const least = formatNumber(min);
      const most = formatNumber(max);
      setError(t`Choose a whole number of seconds from ${least} to ${most}.`);
      return;
    }
    setError(undefined);
    setTyped(null);
    if (chosen !== seconds) onCommand({ type: 'set-question-seconds', seconds: chosen });
  };
  return (
    <form noValidate onSubmit={handleSubmit} className="flex flex-wrap items-end gap-2">
      <Field
        label={t`Seconds per question`}
        error={error}
        id="live-question-seconds"
        className="w-48"
        control={(attributes) => (
          <input
            {...attributes}
            type="number"
            inputMode="numeric"
            min={min}
            max={max}
            step={1}
            value={value}
            onChange={(event) => {
              setTyped(event.target.value);
              setError(undefined);
            }}
          />
        )}
      />
      <Button type="submit" variant="secondary" disabled={!isLive} className={error ? 'mb-7' : undefined}>
        <Trans>Set time</Trans>
      </Button>
    </form>
  );
}

function HostQuestion({
  snapshot,
  question,
  now,
  isLive,
  onCommand,
}: PartProps & { question: OpenedQuestion; now: number }) {
  const { t } = useLingui();
  const isPaused = snapshot.state === 'paused';
  const index = question.index;
  const number = formatNumber(index + 1);
  const count = formatNumber(question.count);
  const left = remainingMs(snapshot, now);
  const seconds = Math.ceil(left / 1000);
  const answered = formatNumber(snapshot.answerCount?.answered ?? 0);
  const players = formatNumber(snapshot.answerCount?.players ?? snapshot.playerCount);
  const content = question.question;
  return (
    <section aria-labelledby="live-question-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="live-question-heading" className="text-xl font-semibold text-muted">
          {t`Question ${number} of ${count}`}
        </h2>
        <div className="flex items-center gap-6">
          <p className="text-lg text-fg">
            <span className="text-3xl font-bold tabular-nums">{t`${answered} of ${players}`}</span>{' '}
            <Trans comment="After a count such as 18 of 27: players who answered the open question">answered</Trans>
          </p>
          <p
            role="timer"
            aria-label={t`Time left`}
            className={cn(
              'flex size-24 items-center justify-center rounded-full border-4 text-3xl font-black tabular-nums',
              left <= ALMOST_UP_MS && !isPaused ? 'border-danger text-danger' : 'border-brand-600 text-fg',
            )}
          >
            {isPaused ? (
              <>
                <Pause className="size-10" aria-hidden="true" />
                <span className="sr-only">
                  <Trans>Paused</Trans>
                </span>
              </>
            ) : (
              formatCountdown(seconds)
            )}
          </p>
        </div>
      </div>
      <div className="rounded-2xl border border-line bg-surface p-5 sm:p-8">
        <QuestionText
          text={content.question_text}
          className="text-2xl font-semibold wrap-anywhere whitespace-pre-wrap text-fg lg:text-4xl"
        />
        {content.image ? (
          <div className="mt-4 flex justify-center">
            <QuestionImage
              image={content.image}
              className="max-h-[40vh] w-auto max-w-full rounded-lg border border-line bg-surface-muted object-contain"
            />
          </div>
        ) : null}
      </div>
      <QuestionChoices question={content} />
      <div role="toolbar" aria-label={t`Question controls`} className="flex flex-wrap gap-2">
        {isPaused ? (
          <Button disabled={!isLive} onClick={() => onCommand({ type: 'resume', index })}>
            <Play className="size-4" aria-hidden="true" />
            <Trans>Resume</Trans>
          </Button>
        ) : (
          <Button variant="secondary" disabled={!isLive} onClick={() => onCommand({ type: 'pause', index })}>
            <Pause className="size-4" aria-hidden="true" />
            <Trans>Pause</Trans>
          </Button>
        )}
        <Button
          variant="secondary"
          disabled={!isLive}
          onClick={() => onCommand({ type: 'add-time', index, seconds: LIVE_GAME_LIMITS.addSecondsDefault })}
        >
          <Plus className="size-4" aria-hidden="true" />
          {/* Short on screen, whole for a screen reader (its name is its text, not an aria-label that hides it). */}
          <span aria-hidden="true">{t({ comment: 'A button’s short text: add ten seconds', message: '10 s' })}</span>
          <span className="sr-only">{t`Add 10 seconds`}</span>
        </Button>
        <Button variant="secondary" disabled={!isLive} onClick={() => onCommand({ type: 'skip', index })}>
          <SkipForward className="size-4" aria-hidden="true" />
          <Trans>Skip</Trans>
        </Button>
      </div>
    </section>
  );
}

/** What the players choose from, as their phones show it: each option's colour, shape and text. */
function QuestionChoices({ question }: { question: OpenedQuestion['question'] }) {
  const { t } = useLingui();
  if (question.type === 'single' || question.type === 'multiple' || question.type === 'true-false') {
    const options =
      question.type === 'true-false'
        ? [true, false].map((value) => ({ _id: String(value), text: trueFalseText(value), image: undefined }))
        : (question.options ?? []);
    return (
      <div className="flex flex-col gap-2">
        {question.type === 'multiple' ? (
          <p className="font-semibold text-muted">
            <Trans>Several answers may be right.</Trans>
          </p>
        ) : null}
        <ul className="grid gap-3 sm:grid-cols-2" aria-label={t`Options`}>
          {options.map((option, index) => {
            const mark = answerMark(index);
            return (
              <li
                key={option._id}
                className={cn('flex items-center gap-4 rounded-xl p-4 text-xl font-semibold text-white', mark.fill)}
              >
                <mark.Shape className="size-8 shrink-0 fill-current" aria-hidden="true" />
                <span className="min-w-0 flex-1">
                  <QuestionText text={option.text} />
                  {option.image ? (
                    <QuestionImage
                      image={option.image}
                      className="mt-2 max-h-32 w-auto max-w-full rounded-md bg-surface object-contain"
                    />
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    );
  }
  if (question.type === 'matching') {
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        <ul aria-label={t`Prompts`} className="flex flex-col gap-2">
          {(question.prompts ?? []).map((prompt) => (
            <li key={prompt._id} className="rounded-lg border border-line bg-surface p-3 text-lg text-fg">
              <QuestionText text={prompt.text} />
            </li>
          ))}
        </ul>
        <ul aria-label={t`Matches`} className="flex flex-col gap-2">
          {(question.choices ?? []).map((choice) => (
            <li key={choice._id} className="rounded-lg border border-line bg-surface-muted p-3 text-lg text-fg">
              <QuestionText text={choice.text} />
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <p className="text-lg text-muted">
      {question.type === 'numeric' ? (
        <Trans>Players type a number on their phones.</Trans>
      ) : (
        <Trans>Players type their answer on their phones.</Trans>
      )}
    </p>
  );
}

function HostClosed({ snapshot, isLive, onCommand, typedAnswersHidden }: PartProps & { typedAnswersHidden: boolean }) {
  const { t } = useLingui();
  const closed = snapshot.closed!;
  const number = formatNumber(closed.index + 1);
  const count = formatNumber(closed.count);
  const isLast = closed.index >= closed.count - 1;
  return (
    <section aria-labelledby="live-closed-heading" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="live-closed-heading" className="text-xl font-semibold text-muted">
          {t`Question ${number} of ${count}: closed`}
        </h2>
        <Button size="lg" disabled={!isLive} onClick={() => onCommand({ type: 'next', from: closed.index })}>
          {isLast ? <Check className="size-5" aria-hidden="true" /> : null}
          {isLast ? <Trans>Show podium</Trans> : <Trans>Next</Trans>}
        </Button>
      </div>
      <div className="rounded-2xl border border-line bg-surface p-5">
        <QuestionText
          text={closed.question.question_text}
          className="text-xl font-semibold wrap-anywhere whitespace-pre-wrap text-fg lg:text-2xl"
        />
      </div>
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <DistributionChart
          question={closed.question}
          distribution={closed.distribution}
          typedAnswersHidden={typedAnswersHidden}
        />
        <Leaderboard top={snapshot.top} />
      </div>
    </section>
  );
}
