import { msg, plural } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { checkRosterImport, startRosterImport } from '#shared/contract/classes';
import {
  csvBlob,
  csvFileName,
  decodeCsvBytes,
  parseRosterCsv,
  ROSTER_FIELDS,
  toCsv,
  type RosterField,
  type RosterFileRefusal,
  type RosterImportCredential,
  type RosterImportCheck,
  type RowProblem,
} from '#shared/roster-import';
import { Button } from '../../components/ui/button.tsx';
import { fieldControlVariants } from '../../components/ui/field.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { STACKED_TABLE } from '../../components/ui/stacked-table.ts';
import { cn } from '../../lib/cn.ts';
import { downloadBlob } from '../../lib/download-file.ts';
import { fieldErrorText } from '../../lib/field-error-texts.ts';
import { formatList, formatNumber } from '../../lib/format.ts';
import { wholeToken } from '../../lib/whole-token.ts';
import { isRosterFileRefusalCode, rosterFileRefusalText } from './roster-import-texts.ts';
import { useRosterImportProgress } from './use-roster-import-progress.ts';

type ClassRef = { classId: string; className: string };

/** A problem shown above the rows, in the client's words. */
type Problem = { text: string };

/** The columns as the dialog names them to the reader (the file's own headers stay English). */
const COLUMN_LABELS: Record<RosterField, MessageDescriptor> = {
  name: msg`Name`,
  rollNumber: msg`Roll number`,
  email: msg`Email`,
  parentName: msg`Parent name`,
  parentEmail: msg`Parent email`,
  password: msg`Password`,
};

/** Session storage, when the browser lets the page use it (a private window may not). */
function readStored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeStored(key: string, value: string | null) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Not kept: the dialog must then stay open, as it says.
  }
}

/** The import's steps inside its dialog: loaded when the teacher opens it. */
export function RosterImportSteps({
  classId,
  className,
  onImported,
  onClose,
}: ClassRef & { onImported?(): void; onClose(): void }) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const fileId = useId();
  const pasteId = useId();
  const [csv, setCsv] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  /** A failed call's text: the file's refusal, the client's (ApiError) words, else a general one. */
  const failureOf = (error: unknown): Problem => {
    if (!(error instanceof ApiError)) return { text: t`Something went wrong. Try again.` };
    // The server read the file as the shared reader does: its refusal has the same codes.
    const refusal = error.fieldErrors.find((problem) => problem.field === 'csv');
    if (refusal && isRosterFileRefusalCode(refusal.code)) return fileProblem({ ...refusal, code: refusal.code });
    return { text: error.message };
  };
  /** The file reader's refusal, worded from its code (its English message is for logs). */
  const fileProblem = (refusal: Pick<RosterFileRefusal, 'code' | 'params'>): Problem => ({
    text: rosterFileRefusalText(refusal),
  });
  const [check, setCheck] = useState<{ csv: string; result: RosterImportCheck } | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  // The running import outlives the dialog and a reload (this tab's session storage): its
  // passwords are answered once, when it is done, and the teacher who closed the dialog meanwhile
  // finds them on opening it again.
  const storageKey = `roster-import:${classId}`;
  const [importId, setImportId] = useState<string | null>(() => readStored(storageKey));
  const progress = useRosterImportProgress(importId);
  const isDone = progress?.state === 'done';
  const hasEnded = isDone || progress?.state === 'failed';
  useEffect(() => {
    if (hasEnded) writeStored(storageKey, null);
  }, [hasEnded, storageKey]);
  useEffect(() => {
    if (!isDone) return;
    onImported?.();
    void queryClient.invalidateQueries({ queryKey: ['roster-export', classId] });
    // Once per import: the callback's identity may change with every render of its page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isDone]);

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const decoded = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
    setCheck(null);
    if (!decoded.ok) {
      setCsv('');
      // The bytes are not UTF-8 text: the one refusal decodeCsvBytes makes.
      setProblem(fileProblem(decoded));
      return;
    }
    setCsv(decoded.text);
    setProblem(null);
  };

  const handleCheck = async () => {
    setCheck(null);
    // The file's own faults are told at once, without a call.
    const parsed = parseRosterCsv(csv);
    if (!parsed.ok) {
      setProblem(fileProblem(parsed));
      return;
    }
    setProblem(null);
    setIsBusy(true);
    try {
      const { data } = await call(checkRosterImport, { params: { id: classId }, body: { csv } });
      setCheck({ csv, result: data });
    } catch (error) {
      setProblem(failureOf(error));
    } finally {
      setIsBusy(false);
    }
  };

  const handleImport = async () => {
    setIsBusy(true);
    try {
      const { data } = await call(startRosterImport, { params: { id: classId }, body: { csv } });
      writeStored(storageKey, data.importId);
      setImportId(data.importId);
    } catch (error) {
      setProblem(failureOf(error));
      // Something changed since the check (a roll number taken meanwhile): show the rows again.
      if (error instanceof ApiError && error.code === 'ROSTER_ROWS_INVALID') await handleCheck();
    } finally {
      setIsBusy(false);
    }
  };

  if (importId !== null) {
    if (progress?.state === 'done')
      return (
        <CredentialsSheet
          className={className}
          imported={progress.imported}
          credentials={progress.credentials}
          onClose={onClose}
        />
      );
    if (progress?.state === 'failed')
      return (
        <div className="mt-4 flex flex-col gap-4">
          <div
            role="alert"
            className="rounded-lg border border-danger/25 bg-danger-soft p-3 text-sm text-danger-strong"
          >
            <p>{progress.error}</p>
            {progress.reason ? <p className="mt-1">{progress.reason}</p> : null}
          </div>
          <div className="flex justify-end">
            <Button onClick={onClose}>{t`Close`}</Button>
          </div>
        </div>
      );
    return <RosterImportProgressBar progress={progress} />;
  }

  const isChecked = check !== null && check.csv === csv;
  const canImport = isChecked && check.result.rowsWithProblems === 0 && !isBusy;
  const rowCount = isChecked ? check.result.rows.length : 0;
  return (
    <div className="mt-4 flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor={fileId} className="text-sm font-semibold text-fg">
          {t`CSV file`}
        </label>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv,text/plain"
          onChange={(event) => void handleFile(event)}
          className="text-sm text-fg file:me-3 file:rounded-lg file:border file:border-line-strong file:bg-surface file:px-3 file:py-1.5 file:font-semibold"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={pasteId} className="text-sm font-semibold text-fg">
          {t`Or paste the list`}
        </label>
        <textarea
          id={pasteId}
          rows={4}
          // A CSV's lines read left to right, as the spreadsheet wrote them.
          dir="ltr"
          value={csv}
          onChange={(event) => {
            setCsv(event.target.value);
            setProblem(null);
          }}
          className={fieldControlVariants({ text: 'code' })}
        />
      </div>
      {problem ? (
        <p role="alert" className="rounded-lg border border-danger/25 bg-danger-soft p-3 text-sm text-danger-strong">
          {problem.text}
        </p>
      ) : null}
      {isChecked ? <CheckedRows result={check.result} /> : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t`Cancel`}
        </Button>
        <Button variant="secondary" onClick={() => void handleCheck()} disabled={isBusy || csv.trim() === ''}>
          {isChecked ? t`Check again` : t`Check the list`}
        </Button>
        <Button onClick={() => void handleImport()} disabled={!canImport}>
          {isChecked
            ? plural(rowCount, { one: 'Import # student', other: 'Import # students' })
            : t({ comment: 'Button: import the students of the file', message: 'Import' })}
        </Button>
      </div>
    </div>
  );
}

const CHECKED_COLUMNS = ROSTER_FIELDS.filter((field) => field !== 'password');

/** Values read and typed as one piece: a roll number, an email, a password. */
const TOKEN_FIELDS: ReadonlySet<string> = new Set(['rollNumber', 'email', 'parentEmail']);
/**
 * A row's problem in the client's words, from its code (the server's English `message` is never
 * shown): a row's duplicate or a taken value says the column as the dialog names it ("Roll
 * number"); the field rules say it as the forms do.
 */
const rowProblemText = (problem: RowProblem, columnLabel: (field: RosterField) => string) =>
  fieldErrorText(
    { ...problem, field: problem.field ?? '' },
    problem.field && (problem.code === 'DUPLICATE_IN_FILE' || problem.code === 'TAKEN')
      ? columnLabel(problem.field)
      : undefined,
  );

/** Every row as read, its problems beside it; the teacher fixes the file and checks again. */
function CheckedRows({ result }: { result: RosterImportCheck }) {
  const { t, i18n } = useLingui();
  const columnLabel = (field: RosterField) => i18n._(COLUMN_LABELS[field]);
  const rowCount = result.rows.length;
  const withProblems = formatNumber(result.rowsWithProblems);
  const summary =
    result.rowsWithProblems === 0
      ? plural(rowCount, { one: 'The # row can be imported.', other: 'All # rows can be imported.' })
      : plural(rowCount, {
          one: `${withProblems} of # row has problems. Fix it in the file, then check again: nothing is imported until every row is right.`,
          other: `${withProblems} of # rows have problems. Fix them in the file, then check again: nothing is imported until every row is right.`,
        });
  const ignoredColumns = formatList(result.ignoredColumns);
  return (
    <div className="flex flex-col gap-2">
      <p
        role="status"
        className={cn('text-sm font-semibold', result.rowsWithProblems === 0 ? 'text-success' : 'text-danger')}
      >
        {summary}
      </p>
      {result.ignoredColumns.length > 0 ? (
        <p className="text-sm text-muted">{t`Columns not imported: ${ignoredColumns}`}</p>
      ) : null}
      <div
        tabIndex={0}
        role="region"
        aria-label={t`Rows of the file`}
        className="max-h-80 overflow-auto rounded-lg border border-line"
      >
        {/* At phone width each row is a card of label: value lines (no sideways scrolling, no
            word broken), still a table to assistive technology; wider, a table. */}
        <table className={cn('w-full text-start text-sm', STACKED_TABLE.table)}>
          <thead className={cn('sticky top-0 bg-surface-sunken', STACKED_TABLE.head)}>
            <tr>
              <th scope="col" className="px-2 py-1.5">
                {t({ comment: 'A row of the spreadsheet file (its number)', message: 'Row' })}
              </th>
              {CHECKED_COLUMNS.map((field) => (
                <th key={field} scope="col" className="px-2 py-1.5">
                  {columnLabel(field)}
                </th>
              ))}
              <th scope="col" className="px-2 py-1.5">
                {columnLabel('password')}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {t`Problems`}
              </th>
            </tr>
          </thead>
          <tbody className={STACKED_TABLE.body}>
            {result.rows.map((row) => (
              <tr
                key={row.row}
                className={cn(
                  'border-t border-line first:max-sm:border-t-0',
                  STACKED_TABLE.row,
                  row.problems.length > 0 && 'bg-danger-soft',
                )}
              >
                <th
                  scope="row"
                  data-label={t({ comment: 'A row of the spreadsheet file (its number)', message: 'Row' })}
                  className={cn(STACKED_TABLE.line, 'px-2 py-1.5 font-normal')}
                >
                  {formatNumber(row.row, { useGrouping: false })}
                </th>
                {CHECKED_COLUMNS.map((field) => (
                  <td
                    key={field}
                    data-label={columnLabel(field)}
                    className={cn(
                      STACKED_TABLE.line,
                      'px-2 py-1.5 sm:wrap-anywhere',
                      // A token that does not fit beside its label goes whole to the line below it.
                      TOKEN_FIELDS.has(field) && 'max-sm:flex-wrap',
                      row.problems.some((problem) => problem.field === field) && 'font-semibold text-danger-strong',
                    )}
                  >
                    {/* A bdi: a roll number or an email keeps its own order inside a right-to-left page. */}
                    <bdi
                      className={cn(
                        'min-w-0 break-words',
                        TOKEN_FIELDS.has(field) && wholeToken(row[field], 'on-a-phone'),
                      )}
                    >
                      {row[field]}
                    </bdi>
                  </td>
                ))}
                <td data-label={columnLabel('password')} className={cn(STACKED_TABLE.line, 'px-2 py-1.5')}>
                  {row.hasPassword
                    ? t({ comment: "The row's password is the one in the file", message: 'From the file' })
                    : t({ comment: 'A password is generated for the row', message: 'Generated' })}
                </td>
                <td className="px-2 py-1.5 text-danger-strong max-sm:block max-sm:empty:hidden">
                  {row.problems.length > 0 ? (
                    <ul>
                      {row.problems.map((problem) => (
                        <li key={`${problem.field}:${problem.code}`}>{rowProblemText(problem, columnLabel)}</li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function RosterImportProgressBar({
  progress,
}: {
  progress: { state: 'hashing' | 'writing'; done: number; total: number } | null;
}) {
  const { t } = useLingui();
  const done = formatNumber(progress?.done ?? 0);
  const total = formatNumber(progress?.total ?? 0);
  const label =
    progress === null
      ? t`Starting the import…`
      : progress.state === 'writing'
        ? t`Saving the students…`
        : t`Preparing passwords: ${done} of ${total}`;
  return (
    <div className="mt-6 flex flex-col gap-2">
      <p id="import-progress-label" className="text-sm font-semibold text-fg">
        {label}
      </p>
      <progress
        aria-labelledby="import-progress-label"
        max={progress?.total ?? 1}
        value={progress?.state === 'writing' ? progress.total : (progress?.done ?? 0)}
        className="h-3 w-full accent-brand-600"
      />
      <p className="text-sm text-muted">
        {t`Keep this window open: the passwords are shown once, when the import is done.`}
      </p>
    </div>
  );
}

/** The generated passwords, shown once: print them or keep them as CSV before closing. */
function CredentialsSheet({
  className,
  imported,
  credentials,
  onClose,
}: {
  className: string;
  imported: number;
  credentials: RosterImportCredential[];
  onClose(): void;
}) {
  const { t } = useLingui();
  // The sheet as a CSV a person reads: headers in the reader's language (it is not imported back).
  const credentialsCsv = () =>
    toCsv(
      [t`Name`, t`Roll number`, t`Password`],
      credentials.map((credential) => [credential.name, credential.rollNumber, credential.password]),
    );
  return (
    <div className="mt-4 flex flex-col gap-4">
      <p role="status" className="text-sm font-semibold text-success">
        {plural(imported, {
          one: `# student imported into ${className}.`,
          other: `# students imported into ${className}.`,
        })}
      </p>
      {credentials.length > 0 ? (
        <>
          <p className="rounded-lg border border-warning-line bg-warning-soft p-3 text-sm font-semibold text-warning">
            {t`These passwords are shown only once: print them or download them now. Each student chooses a new password at the first sign-in.`}
          </p>
          {/* Scrolls with 30 rows and more: focusable, so a keyboard can scroll it. */}
          <div
            tabIndex={0}
            role="region"
            aria-label={t`Credentials sheet`}
            className="print-sheet max-h-80 overflow-auto"
          >
            <h3 className="mb-2 hidden text-lg font-bold print:block">{t`${className}: sign-in details`}</h3>
            {/* A card per student on a phone (no sideways scrolling); a table wider and on paper. */}
            <table className={cn('w-full text-start text-sm', STACKED_TABLE.table)}>
              <thead className={STACKED_TABLE.head}>
                <tr className="border-b border-line">
                  <th scope="col" className="px-2 py-1.5">
                    {t`Name`}
                  </th>
                  <th scope="col" className="px-2 py-1.5">
                    {t`Roll number`}
                  </th>
                  <th scope="col" className="px-2 py-1.5">
                    {t`Password`}
                  </th>
                </tr>
              </thead>
              <tbody className={STACKED_TABLE.body}>
                {credentials.map((credential) => (
                  <tr key={credential.rollNumber} className={cn('border-b border-line', STACKED_TABLE.row)}>
                    <td data-label={t`Name`} className={cn(STACKED_TABLE.line, 'px-2 py-1.5 break-words')}>
                      <bdi className="min-w-0">{credential.name}</bdi>
                    </td>
                    {/* A roll number and a password are read and typed as one piece: never broken at a dash. */}
                    <td
                      data-label={t`Roll number`}
                      className={cn(
                        STACKED_TABLE.line,
                        'px-2 py-1.5 max-sm:flex-wrap',
                        wholeToken(credential.rollNumber),
                      )}
                    >
                      <bdi>{credential.rollNumber}</bdi>
                    </td>
                    <td
                      data-label={t`Password`}
                      className={cn(STACKED_TABLE.line, 'px-2 py-1.5 font-mono whitespace-nowrap max-sm:flex-wrap')}
                    >
                      <bdi dir="ltr">{credential.password}</bdi>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {credentials.length > 0 ? (
          <>
            <Button variant="secondary" onClick={() => window.print()}>
              {t`Print`}
            </Button>
            <Button
              variant="secondary"
              onClick={() =>
                downloadBlob(
                  csvBlob(credentialsCsv()),
                  csvFileName(
                    className,
                    t({ comment: 'Part of a file name: the generated passwords, no spaces', message: 'passwords' }),
                  ),
                )
              }
            >
              {t`Download CSV`}
            </Button>
          </>
        ) : null}
        <Button onClick={onClose}>{t`Done`}</Button>
      </div>
    </div>
  );
}
