import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CheckCircle2,
  CircleMinus,
  CirclePause,
  Clock,
  Hourglass,
  PartyPopper,
  UserX,
  WifiOff,
  XCircle,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { LiveOutcome, OpenedQuestion, PlayerResult } from '#shared/live-games';
import type { AnswerValue } from '#shared/question-types';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { dashboardPathFor } from '../../lib/session.ts';
import { QuestionImage, QuestionText } from '../quizzes/question-text.tsx';
import type { LiveSnapshot } from './live-session.ts';
import { currentIndex, remainingMs } from './live-state.ts';
import { PlayerAnswer } from './player-answer.tsx';
import { isRemovedEnd, playerEndText, rankText, refusalText } from './player-texts.ts';

/**
 * The player's screens of a live game (issue 34), pure: what they show comes from the session's
 * snapshot (live-session.ts) and the clock (`now`), what the player does goes to `onAnswer`. The
 * page (player-page.tsx) drives them; the tests render them with snapshots of their own.
 */

type PlayerViewProps = {
  snapshot: LiveSnapshot;
  /** This page's clock, ticking while a question is open. */
  now: number;
  playerName: string;
  /** The player's answer to the open question. */
  onAnswer(value: AnswerValue): void;
};

/** Seconds left at which screen readers hear a warning, once a question. */
const WARNING_SECONDS = 5;

export function PlayerView({ snapshot, now, playerName, onAnswer }: PlayerViewProps) {
  const game = snapshot.studentGame;
  const className = game?.class.name ?? '';
  const { t } = useLingui();
  const score = snapshot.final?.score ?? snapshot.you?.score ?? 0;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4">
      {game ? (
        <header className="flex items-center justify-between gap-3">
          <div className="min-w-0">
            {/* The teacher's title in its own direction: an English title in Arabic is cut at its end. */}
            <h1 dir="auto" className="truncate text-lg font-bold text-fg">
              {game.quiz.title}
            </h1>
            <p className="truncate text-sm text-muted">
              <Trans>
                Live game · <bdi>{className}</bdi>
              </Trans>
            </p>
          </div>
          {snapshot.you ? (
            <p className="shrink-0 rounded-full bg-surface-inverse px-3 py-1 text-sm font-semibold text-fg-inverse">
              {t`Score`}{' '}
              <bdi data-testid="live-score" className="tabular-nums">
                {formatNumber(score)}
              </bdi>
            </p>
          ) : null}
        </header>
      ) : null}
      {snapshot.connection === 'reconnecting' ? (
        <p
          role="status"
          className="flex items-center gap-2 self-start rounded-full bg-warning-soft px-3 py-1 text-sm font-medium text-warning"
        >
          <WifiOff className="size-4" aria-hidden="true" />
          {t`Reconnecting…`}
        </p>
      ) : null}
      <PlayerStage snapshot={snapshot} now={now} playerName={playerName} onAnswer={onAnswer} />
      <Announcer snapshot={snapshot} now={now} />
    </div>
  );
}

function PlayerStage({ snapshot, now, playerName, onAnswer }: PlayerViewProps) {
  const { t } = useLingui();
  if (snapshot.removed || isRemovedEnd(snapshot.end)) {
    return (
      <Panel icon={<UserX className="size-10 text-danger" aria-hidden="true" />} title={t`Removed from the game`}>
        <p>{t`A teacher removed you from this game.`}</p>
        <DashboardLink />
      </Panel>
    );
  }
  if (snapshot.state === 'ended') return <FinalView final={snapshot.final} />;
  if (snapshot.connection === 'ended' && snapshot.end) {
    return (
      <Panel icon={<XCircle className="size-10 text-muted" aria-hidden="true" />} title={t`Not in the game`}>
        <p>{playerEndText(snapshot.end)}</p>
        <DashboardLink />
      </Panel>
    );
  }
  if (snapshot.role === null) {
    return (
      <div role="status" className="flex items-center justify-center gap-3 py-16 text-muted">
        <Spinner className="size-8" />
        {t`Joining the game…`}
      </div>
    );
  }
  if (snapshot.question) {
    return <QuestionView key={snapshot.question.question._id} snapshot={snapshot} now={now} onAnswer={onAnswer} />;
  }
  // The welcome's index, or the last question this page saw close since.
  const standsAt = Math.max(currentIndex(snapshot), snapshot.studentGame?.currentIndex ?? -1);
  const hasJoinedSince = !snapshot.result && snapshot.you !== null && snapshot.you.firstIndex > standsAt;
  if (snapshot.state === 'question-closed' && hasJoinedSince) {
    // Joined between questions: in the game, playing from the next one (not "time is up").
    return (
      <Panel icon={<PartyPopper className="size-12 text-brand-600" aria-hidden="true" />} title={t`You’re in!`}>
        <p className="text-lg">{t`You’ll play from the next question.`}</p>
      </Panel>
    );
  }
  if (snapshot.state === 'question-closed') {
    return snapshot.result ? (
      <ResultView result={snapshot.result} />
    ) : (
      <Panel icon={<Hourglass className="size-10 text-muted" aria-hidden="true" />} title={t`Time is up`}>
        <p>{t`Waiting for the next question…`}</p>
      </Panel>
    );
  }
  const game = snapshot.studentGame;
  const questionCount = game?.questionCount ?? 0;
  return (
    <Panel icon={<PartyPopper className="size-12 text-brand-600" aria-hidden="true" />} title={t`You’re in!`}>
      <p className="text-lg">{t`Waiting for the teacher to start`}</p>
      <p className="font-semibold text-fg">
        <bdi>{playerName}</bdi>
        {game ? (
          <>
            {' · '}
            <bdi>{game.class.name}</bdi>
          </>
        ) : null}
      </p>
      {game ? <p className="text-sm">{plural(questionCount, { one: '# question', other: '# questions' })}</p> : null}
    </Panel>
  );
}

/** A centred card: an icon, a title, and what to say. */
function Panel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col items-center gap-3 rounded-2xl border border-line bg-surface px-5 py-10 text-center text-muted shadow-sm">
      {icon}
      <h2 className="text-2xl font-bold text-fg">{title}</h2>
      {children}
    </section>
  );
}

function DashboardLink() {
  return (
    <Link to={dashboardPathFor('student')} className={cn(buttonVariants({ variant: 'secondary' }), 'mt-2')}>
      <Trans>Back to your dashboard</Trans>
    </Link>
  );
}

/** Refusals after which the player may send again: the answer was not taken, and the question goes on. */
const RETRYABLE = ['INVALID_ANSWER', 'GAME_PAUSED'];

function QuestionView({ snapshot, now, onAnswer }: Omit<PlayerViewProps, 'playerName'>) {
  const { t } = useLingui();
  const opened = snapshot.question as OpenedQuestion;
  const { question } = opened;
  // Refusals before this question are not about it.
  const [firstRefusal] = useState(() => snapshot.refusal?.seq ?? 0);
  // The refusal count when the answer went: a later refusal that lets the player retry unlocks.
  const [sentAt, setSentAt] = useState<number | null>(null);
  const refusal = snapshot.refusal && snapshot.refusal.seq > firstRefusal ? snapshot.refusal : null;
  const isSent =
    sentAt !== null && !(refusal && refusal.seq > sentAt && RETRYABLE.includes(refusal.code) && !snapshot.hasAnswered);
  const secondsLeft = Math.ceil(remainingMs(snapshot, now) / 1000);
  const isLate = snapshot.you !== null && snapshot.you.firstIndex > opened.index;
  const isPaused = snapshot.paused !== null;
  const isLocked = isSent || snapshot.hasAnswered || isPaused || secondsLeft <= 0 || isLate;
  const number = formatNumber(opened.index + 1);
  const count = formatNumber(opened.count);

  const send = (value: AnswerValue) => {
    if (isLocked) return;
    setSentAt(snapshot.refusal?.seq ?? 0);
    onAnswer(value);
  };

  const status = snapshot.hasAnswered
    ? t`Answer locked in — waiting for the others`
    : isSent
      ? snapshot.connection === 'live'
        ? t`Answer sent`
        : t`Answer kept: it goes as soon as the game is back`
      : null;

  return (
    <section aria-labelledby="live-question" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold text-brand-700">{t`Question ${number} of ${count}`}</p>
        <p
          role="timer"
          aria-label={plural(secondsLeft, { one: '# second left', other: '# seconds left' })}
          className={cn(
            'inline-flex items-center gap-2 rounded-full px-3 py-1 text-lg font-bold text-white tabular-nums',
            secondsLeft <= WARNING_SECONDS && !isPaused ? 'bg-danger' : 'bg-surface-inverse',
          )}
        >
          <Clock className="size-4" aria-hidden="true" />
          <bdi>{formatNumber(Math.max(0, secondsLeft))}</bdi>
        </p>
      </div>
      <div className="rounded-2xl border border-line bg-surface p-4 shadow-sm">
        <h2 id="live-question" dir="auto" className="text-xl font-semibold text-fg">
          <QuestionText text={question.question_text} />
        </h2>
        {question.image ? (
          <div className="mt-3">
            <QuestionImage image={question.image} className="max-h-48 w-auto max-w-full rounded-lg object-contain" />
          </div>
        ) : null}
      </div>
      {isPaused ? (
        <Notice icon={<CirclePause className="size-5" aria-hidden="true" />}>{t`Paused by the teacher`}</Notice>
      ) : null}
      {isLate ? (
        <Notice icon={<Hourglass className="size-5" aria-hidden="true" />}>
          {t`You joined during this question: you’ll play from the next question.`}
        </Notice>
      ) : (
        <PlayerAnswer question={question} isLocked={isLocked} onAnswer={send} />
      )}
      <p role="status" className="min-h-6 text-center font-semibold text-fg">
        {status}
      </p>
      {refusal && !(refusal.code === 'ALREADY_ANSWERED' && snapshot.hasAnswered && !isSent) ? (
        <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger-strong">
          {refusalText(refusal.code)}
        </p>
      ) : null}
    </section>
  );
}

function Notice({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="flex items-center gap-2 rounded-lg bg-warning-soft px-3 py-2 font-semibold text-warning">
      {icon}
      {children}
    </p>
  );
}

const OUTCOME_LOOKS: Record<LiveOutcome, { Icon: typeof CheckCircle2; tone: string }> = {
  right: { Icon: CheckCircle2, tone: 'bg-success-soft text-success' },
  partial: { Icon: CircleMinus, tone: 'bg-warning-soft text-warning' },
  wrong: { Icon: XCircle, tone: 'bg-danger-soft text-danger-strong' },
  none: { Icon: Hourglass, tone: 'bg-surface-muted text-muted' },
};

/** The outcome's word: Right, Partly right, Wrong, No answer. */
function useOutcomeText() {
  const { t } = useLingui();
  return (outcome: LiveOutcome) =>
    ({
      right: t({ comment: 'A live game: the player’s answer earned all its points', message: 'Right' }),
      partial: t({ comment: 'A live game: the player’s answer earned part of its points', message: 'Partly right' }),
      wrong: t({ comment: 'A live game: the player’s answer earned nothing', message: 'Wrong' }),
      none: t({ comment: 'A live game: the player did not answer in time', message: 'No answer' }),
    })[outcome];
}

/** The player's result of the question just closed: outcome, points, total, rank, streak. */
export function ResultView({ result }: { result: PlayerResult }) {
  const { t } = useLingui();
  const outcomeText = useOutcomeText();
  const { Icon, tone } = OUTCOME_LOOKS[result.outcome];
  const score = formatNumber(result.score);
  const { points, streak } = result;
  return (
    <section className="flex flex-col gap-4" aria-labelledby="live-result">
      <div className={cn('flex flex-col items-center gap-2 rounded-2xl px-5 py-8 text-center', tone)}>
        <Icon className="size-14" aria-hidden="true" />
        <h2 id="live-result" className="text-3xl font-bold">
          {outcomeText(result.outcome)}
        </h2>
        <p className="text-xl font-semibold">{plural(points, { one: '+# point', other: '+# points' })}</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 text-center">
        <Fact label={t`Total score`} value={<bdi className="tabular-nums">{score}</bdi>} />
        <Fact label={t`Rank`} value={rankText(result.rank, result.players)} />
        {result.streak > 1 ? (
          <div className="col-span-2 rounded-xl bg-accent-50 px-3 py-2 font-semibold text-fg">
            {plural(streak, { one: '# right answer in a row', other: '# right answers in a row' })}
          </div>
        ) : null}
      </dl>
      <p className="text-center text-muted">{t`Waiting for the next question…`}</p>
    </section>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-xl border border-line bg-surface px-3 py-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-2xl font-bold text-fg">{value}</dd>
    </div>
  );
}

/** The game is over: the player's final score and rank (none for a player who never played). */
export function FinalView({ final }: { final: LiveSnapshot['final'] }) {
  const { t } = useLingui();
  return (
    <Panel icon={<PartyPopper className="size-12 text-brand-600" aria-hidden="true" />} title={t`The game is over`}>
      {final ? (
        <dl className="grid w-full grid-cols-2 gap-3">
          <Fact label={t`Final score`} value={<bdi className="tabular-nums">{formatNumber(final.score)}</bdi>} />
          <Fact label={t`Rank`} value={rankText(final.rank, final.players)} />
        </dl>
      ) : null}
      <DashboardLink />
    </Panel>
  );
}

/**
 * What a screen reader hears as the game goes (a polite live region, always in the page): a
 * question opened, five seconds left, a pause, the player's result. Derived from the snapshot, so
 * each text is announced when it changes, and the same text is not announced again.
 */
function Announcer({ snapshot, now }: { snapshot: LiveSnapshot; now: number }) {
  const { t } = useLingui();
  const outcomeText = useOutcomeText();
  const { question, paused, result } = snapshot;
  let message = '';
  if (question && paused) {
    message = t`Paused by the teacher`;
  } else if (question) {
    const number = formatNumber(question.index + 1);
    const count = formatNumber(question.count);
    // Stays once said, until the question closes: the warning is heard once.
    const secondsLeft = WARNING_SECONDS;
    message =
      remainingMs(snapshot, now) <= secondsLeft * 1000
        ? plural(secondsLeft, { one: '# second left', other: '# seconds left' })
        : t`Question ${number} of ${count} is open.`;
  } else if (snapshot.state === 'question-closed' && result) {
    const outcome = outcomeText(result.outcome);
    const { points } = result;
    const earned = plural(points, { one: '+# point', other: '+# points' });
    const rank = rankText(result.rank, result.players);
    message = t`${outcome}. ${earned}. Rank ${rank}.`;
  }
  return (
    <div aria-live="polite" aria-atomic="true" className="sr-only">
      {message}
    </div>
  );
}
