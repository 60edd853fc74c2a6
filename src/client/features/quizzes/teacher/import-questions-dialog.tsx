import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ChangeEvent } from 'react';
import { parseAiken } from '#shared/aiken';
import { parseGift, type ImportResult } from '#shared/gift';
import type { TypedQuestionInput } from '#shared/question-types';
import { Button } from '../../../components/ui/button.tsx';
import { fieldControlVariants } from '../../../components/ui/field.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatFileSize, formatNumber } from '../../../lib/format.ts';
import { importProblemText } from './import-problem-texts.ts';

// The formats' own names: not translated.
export const IMPORT_FORMATS = {
  gift: { label: 'GIFT (Moodle)', parse: parseGift },
  aiken: { label: 'Aiken', parse: parseAiken },
} as const;
type ImportFormat = keyof typeof IMPORT_FORMATS;

/** A file larger than any quiz's text (and its markup) is not a question bank worth reading here. */
const MAX_FILE_BYTES = 1_000_000;

/** The "Import questions" dialog; closing it (Cancel, Escape, Import) calls onClose. */
export function ImportQuestionsDialog({
  onImport,
  onClose,
}: {
  onImport(questions: TypedQuestionInput[]): void;
  onClose(): void;
}) {
  const { t } = useLingui();
  return (
    <ModalDialog
      title={t`Import questions`}
      description={t`A GIFT file (Moodle’s text format) or an Aiken file. Check it first: every problem is listed with its line.`}
      widthClassName="w-[min(48rem,calc(100%-1rem))]"
      onClose={onClose}
    >
      {(close) => <ImportQuestionsSteps onImport={onImport} onClose={close} />}
    </ModalDialog>
  );
}

/**
 * The steps of "Import questions" (issue 20 point 6, decision 036): a GIFT or Aiken file or
 * pasted text → Check, which lists every problem with its line → Import, which appends the
 * questions to the editor. Errors block the import unless the teacher skips those questions;
 * the server judges every question again when the quiz is saved.
 */
export function ImportQuestionsSteps({
  onImport,
  onClose,
}: {
  onImport(questions: TypedQuestionInput[]): void;
  onClose(): void;
}) {
  const [format, setFormat] = useState<ImportFormat>('gift');
  const [text, setText] = useState('');
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [checked, setChecked] = useState<{ text: string; format: ImportFormat; result: ImportResult } | null>(null);
  const [skipErrors, setSkipErrors] = useState(false);
  const ids = { format: useId(), file: useId(), text: useId(), skip: useId() };
  const { t } = useLingui();

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setChecked(null);
    if (file.size > MAX_FILE_BYTES) {
      const largest = formatFileSize(MAX_FILE_BYTES);
      setFileProblem(t`The file is larger than ${largest}: split it into smaller files.`);
      return;
    }
    setFileProblem(null);
    setText((await file.text()).replace(/^\uFEFF/, ''));
  };

  const isCurrent = checked !== null && checked.text === text && checked.format === format;
  const result = isCurrent ? checked.result : null;
  const errors = result?.problems.filter((problem) => problem.severity === 'error').length ?? 0;
  const count = result?.questions.length ?? 0;
  const canImport = result !== null && count > 0 && (errors === 0 || skipErrors);
  const warnings = (result?.problems.length ?? 0) - errors;

  return (
    <div className="mt-4 flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.format} className="text-sm font-medium text-fg">
            <Trans>Format</Trans>
          </label>
          <select
            id={ids.format}
            value={format}
            onChange={(event) => setFormat(event.target.value as ImportFormat)}
            className={fieldControlVariants()}
          >
            {Object.entries(IMPORT_FORMATS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.file} className="text-sm font-medium text-fg">
            <Trans>
              File (<bdi dir="ltr">.txt</bdi> or <bdi dir="ltr">.gift</bdi>)
            </Trans>
          </label>
          <input
            id={ids.file}
            type="file"
            accept=".txt,.gift,text/plain"
            onChange={(event) => void handleFile(event)}
            className="text-sm text-fg file:me-3 file:rounded-lg file:border file:border-line-strong file:bg-surface file:px-3 file:py-1.5 file:font-semibold"
          />
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={ids.text} className="text-sm font-medium text-fg">
          <Trans>Or paste the questions</Trans>
        </label>
        <textarea
          id={ids.text}
          rows={8}
          value={text}
          onChange={(event) => setText(event.target.value)}
          className={fieldControlVariants({ text: 'code' })}
        />
      </div>
      {fileProblem ? (
        <p role="alert" className="rounded-lg border border-danger/25 bg-danger-soft p-3 text-sm text-danger-strong">
          {fileProblem}
        </p>
      ) : null}
      {result ? (
        <section
          aria-label={t({ comment: 'The result of checking the file', message: 'Check' })}
          className="flex flex-col gap-2"
        >
          <p role="status" className="text-sm text-fg">
            <CheckSummary count={count} errors={errors} warnings={warnings} />
          </p>
          {result.problems.length > 0 ? (
            <ul aria-label={t`Problems`} className="max-h-60 overflow-auto rounded-lg border border-line text-sm">
              {result.problems.map((problem, index) => (
                <li key={index} className="flex gap-2 border-b border-line px-3 py-1.5 last:border-b-0">
                  <span
                    className={cn(
                      'shrink-0 font-semibold',
                      problem.severity === 'error' ? 'text-danger-strong' : 'text-muted',
                    )}
                  >
                    <ProblemPlace line={problem.line} severity={problem.severity} />
                  </span>
                  <span>{importProblemText(problem)}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {errors > 0 && count > 0 ? (
            <div className="flex items-center gap-2 text-sm">
              <input
                id={ids.skip}
                type="checkbox"
                checked={skipErrors}
                onChange={(event) => setSkipErrors(event.target.checked)}
                className="size-4"
              />
              <label htmlFor={ids.skip}>
                {plural(errors, {
                  one: 'Skip the # question with errors',
                  other: 'Skip the # questions with errors',
                })}
              </label>
            </div>
          ) : null}
        </section>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          variant="secondary"
          disabled={text.trim() === ''}
          onClick={() => {
            setChecked({ text, format, result: IMPORT_FORMATS[format].parse(text) });
            setSkipErrors(false);
          }}
        >
          {isCurrent ? t`Check again` : t({ comment: 'A button: check the questions for problems', message: 'Check' })}
        </Button>
        <Button
          disabled={!canImport}
          onClick={() => {
            onImport(result!.questions.map(({ question }) => question));
            onClose();
          }}
        >
          {result && count > 0
            ? plural(count, { one: 'Import # question', other: 'Import # questions' })
            : t({ comment: 'A button: add the checked questions to the quiz', message: 'Import' })}
        </Button>
      </div>
    </div>
  );
}

/** "2 questions ready, 1 question with errors, 1 warning." */
function CheckSummary({ count, errors, warnings }: { count: number; errors: number; warnings: number }) {
  const { t } = useLingui();
  const ready = plural(count, { one: '# question ready', other: '# questions ready' });
  const withErrors = plural(errors, { one: '# question with errors', other: '# questions with errors' });
  const warned = plural(warnings, { one: '# warning', other: '# warnings' });
  if (errors > 0 && warnings > 0) return t`${ready}, ${withErrors}, ${warned}.`;
  if (errors > 0) return t`${ready}, ${withErrors}.`;
  if (warnings > 0) return t`${ready}, ${warned}.`;
  return t`${ready}.`;
}

/** "Line 3, error:" before a problem's own words. */
function ProblemPlace({ line, severity }: { line: number; severity: 'error' | 'warning' }) {
  const { t } = useLingui();
  const number = formatNumber(line);
  return severity === 'error' ? t`Line ${number}, error:` : t`Line ${number}, warning:`;
}
