import { Trans, useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { QUESTION_LIMITS } from '#shared/question-types';
import {
  AddRowButton,
  removeRowButton,
  rowActions,
  rowInputClasses,
  rowInputId,
  RowList,
  type TypeFieldsProps,
} from './editor-rows.tsx';
import { newPair } from './quiz-draft.ts';
import { formatNumber } from '../../../lib/format.ts';

/**
 * The pairs of a matching question (decision 045): a prompt and its match on each row; a row
 * without a prompt is an extra match that belongs to no prompt. Rows are structure (locked
 * once students started); their texts may still change.
 */
export function MatchingFields(props: TypeFieldsProps) {
  const { question, number, slot, error, update, locked } = props;
  const id = `${question.key}-pairs`;
  const message = error('pairs');
  const { add, remove } = rowActions('pairs', props, newPair);
  const { t } = useLingui();
  const change = (key: string, changes: { prompt?: string; match?: string }) =>
    update({ pairs: question.pairs.map((pair) => (pair.key === key ? { ...pair, ...changes } : pair)) });
  return (
    <RowList
      id={id}
      legend={t`Pairs: each prompt and its match`}
      error={message}
      hint={t`Students pick each prompt’s match from a list of every match. Leave a prompt empty to add a match that belongs to no prompt.`}
      footer={
        <AddRowButton
          label={t`Add pair`}
          locked={locked}
          disabled={question.pairs.length >= QUESTION_LIMITS.pairsMax}
          onClick={add}
        />
      }
    >
      {question.pairs.map((pair, index) => {
        const position = formatNumber(index + 1);
        return (
          <li key={pair.key} className="flex items-start gap-2">
            <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-2">
              <label htmlFor={rowInputId(pair.key)} className="sr-only">
                <Trans>
                  Prompt {position} of question {number}
                </Trans>
              </label>
              <input
                id={rowInputId(pair.key)}
                data-field={index === 0 ? `${slot}.pairs` : undefined}
                type="text"
                autoComplete="off"
                placeholder={t`Prompt ${position}`}
                maxLength={QUESTION_LIMITS.text}
                value={pair.prompt}
                onChange={(event) => change(pair.key, { prompt: event.target.value })}
                aria-invalid={message ? true : undefined}
                className={rowInputClasses(Boolean(message))}
              />
              <label htmlFor={`${pair.key}-match`} className="sr-only">
                <Trans>
                  Match {position} of question {number}
                </Trans>
              </label>
              <input
                id={`${pair.key}-match`}
                type="text"
                autoComplete="off"
                placeholder={t`Its match`}
                maxLength={QUESTION_LIMITS.text}
                value={pair.match}
                onChange={(event) => change(pair.key, { match: event.target.value })}
                aria-invalid={message ? true : undefined}
                className={rowInputClasses(Boolean(message))}
              />
            </div>
            {locked ? null : (
              <button
                type="button"
                onClick={() => remove(index)}
                disabled={question.pairs.length <= QUESTION_LIMITS.pairsMin}
                aria-label={t`Remove pair ${position} of question ${number}`}
                className={removeRowButton}
              >
                <X className="size-5" aria-hidden="true" />
              </button>
            )}
          </li>
        );
      })}
    </RowList>
  );
}
