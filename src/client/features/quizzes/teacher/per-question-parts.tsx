import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { QuestionText } from '../question-text.tsx';

/**
 * What a per-question list is made of, on the quiz's analytics (question-stats-section.tsx) and
 * on a live game's report alike: the question's heading, its figures, and how its answers spread.
 * Kept apart from the analytics' stats, which the report's route does not load.
 */

/** "Other answers": the typed answers past the most common ones, summed in one row. */
export const OTHER_ANSWERS = msg({
  comment: 'The typed answers past the most common ones, summed in one row',
  message: 'Other answers',
});

/** A question's heading in a per-question list: "Q1." and its text. */
export function QuestionHeading({ number, text, className }: { number: string; text: string; className?: string }) {
  const { t } = useLingui();
  return (
    <h3 className={cn('wrap-anywhere text-fg', className)}>
      <span className="font-semibold">
        {t({ comment: 'Q1 is question 1, before its text', message: `Q${number}.` })}
      </span>{' '}
      <QuestionText text={text} className="wrap-anywhere" />
    </h3>
  );
}

/** A question's figures, "name: value" side by side, the values as they are read. */
export function QuestionFigureList({ figures, className }: { figures: [string, string][]; className?: string }) {
  const { t } = useLingui();
  return (
    <dl className={cn('flex flex-wrap gap-x-6 gap-y-1', className)}>
      {figures.map(([label, value]) => (
        <div key={label} className="flex gap-1.5">
          <dt className="text-muted">{t({ comment: 'A figure’s name before its value', message: `${label}:` })}</dt>
          <dd className="font-semibold text-fg tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One answer given to a question, in the reader's words: how often, and whether it is (part of) the key. */
export type AnswerShare = { key: string; label: string; count: number; isCorrect: boolean };

/**
 * How the answers to a question spread: a row per answer with its bar, its count and its share
 * of `total`, the right ones named. The caption and the count column's name say of whom.
 */
export function AnswerSharesTable({
  shares,
  total,
  caption,
  countHeading,
}: {
  shares: AnswerShare[];
  total: number;
  caption: ReactNode;
  countHeading: ReactNode;
}) {
  return (
    <table className="mt-2 w-full text-start">
      <caption className="sr-only">{caption}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">
            <Trans>Answer</Trans>
          </th>
          <th scope="col">{countHeading}</th>
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => (
          <AnswerShareRow key={share.key} share={share} total={total} />
        ))}
      </tbody>
    </table>
  );
}

/** One answer's row: the answer (with "(correct)"), then its bar and "count (percent)" of `total`. */
function AnswerShareRow({ share, total }: { share: AnswerShare; total: number }) {
  const { t } = useLingui();
  const percentOfTotal = total === 0 ? 0 : (share.count * 100) / total;
  const count = formatNumber(share.count);
  const percent = formatPercent(Math.round(percentOfTotal * 10) / 10);
  return (
    <tr>
      {/* Words wrap between them (a long token may still break): never letter by letter. */}
      <th scope="row" className="w-2/5 py-1 pe-3 text-start align-top font-normal wrap-break-word text-fg">
        <QuestionText text={share.label} className="wrap-break-word" />
        {share.isCorrect ? (
          <span className="ms-1 font-semibold whitespace-nowrap text-success">
            <Trans>(correct)</Trans>
          </span>
        ) : null}
      </th>
      <td className="py-1 align-top">
        <div className="flex items-center gap-2">
          <div aria-hidden="true" className="h-3 flex-1 overflow-hidden rounded bg-surface-muted">
            <div
              className={cn('h-full rounded', share.isCorrect ? 'bg-success' : 'bg-brand-500')}
              style={{ width: `${percentOfTotal}%` }}
            />
          </div>
          <span className="w-28 shrink-0 text-end tabular-nums">{t`${count} (${percent})`}</span>
        </div>
      </td>
    </tr>
  );
}
