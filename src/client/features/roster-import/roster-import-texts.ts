import { plural, t } from '@lingui/core/macro';
import type { RosterFileRefusal, RosterImportFailure } from '#shared/roster-import';
import { failureText } from '../../lib/error-messages.ts';
import { formatList, formatNumber } from '../../lib/format.ts';

/**
 * The roster import's refusals and failures in the reader's language, from the codes and
 * parameters the shared reader and the server give (issue 32 point 3): their English messages
 * are for logs and never shown.
 */

const listOf = (value: unknown) => formatList(Array.isArray(value) ? value.map(String) : []);

const REFUSAL_CODES: ReadonlySet<string> = new Set<RosterFileRefusal['code']>([
  'NOT_TEXT',
  'EMPTY_FILE',
  'UNCLOSED_QUOTE',
  'DUPLICATE_COLUMN',
  'MISSING_COLUMNS',
  'NO_STUDENTS',
  'TOO_MANY_ROWS',
]);

/** Whether a field error's code is one of the file reader's refusals. */
export const isRosterFileRefusalCode = (code: string): code is RosterFileRefusal['code'] => REFUSAL_CODES.has(code);

/** Why the file cannot be read as a class list (parseRosterCsv, decodeCsvBytes, or the server's field error). */
export function rosterFileRefusalText({ code, params }: Pick<RosterFileRefusal, 'code' | 'params'>): string {
  switch (code) {
    case 'NOT_TEXT':
      return t`This file is not a text CSV file. In your spreadsheet choose "Save as" or "Download" as CSV (UTF-8) and choose that file.`;
    case 'EMPTY_FILE':
      return t`The file is empty.`;
    case 'UNCLOSED_QUOTE': {
      const line = formatNumber(Number(params?.line));
      return t({
        comment: '{line} is a line number of the file',
        message: `A quoted cell that starts on line ${line} is never closed: check the quotes (") there.`,
      });
    }
    case 'DUPLICATE_COLUMN': {
      const column = String(params?.column ?? '');
      return t({
        comment: '{column} is a column header of the file, in English as the file writes it',
        message: `The header names the column "${column}" twice.`,
      });
    }
    case 'MISSING_COLUMNS': {
      const missing = listOf(params?.missing);
      const expected = listOf(params?.expected);
      return t({
        comment: '{missing} and {expected} are lists of column headers of the file, in English as the file writes them',
        message: `The first line must name the columns. Missing: ${missing}. Expected: ${expected} (Password is optional).`,
      });
    }
    case 'NO_STUDENTS':
      return t`The file has a header but no students.`;
    case 'TOO_MANY_ROWS': {
      const rows = Number(params?.rows);
      const max = formatNumber(Number(params?.max));
      return plural(rows, {
        one: `The file has # student: at most ${max} can be imported at once. Split it into smaller files.`,
        other: `The file has # students: at most ${max} can be imported at once. Split it into smaller files.`,
      });
    }
  }
}

/** Why a failed import wrote nothing (its status's `failure`). */
export function rosterImportFailureText({ code, params }: RosterImportFailure): string {
  switch (code) {
    case 'TAKEN_DURING_IMPORT':
      return params?.field === 'email'
        ? t`An email of the file was given to another student while the import ran: check the file again.`
        : t`A roll number of the file was given to another student while the import ran: check the file again.`;
    case 'SERVER_RESTARTED':
      return t`The server restarted during the import: import the file again.`;
    case 'IMPORT_FAILED':
      return t`The import failed on our side: try again.`;
    // A refusal of the class or the account that stopped it: worded as the same refusal anywhere.
    case 'CLASS_ARCHIVED':
    case 'NOT_FOUND':
    case 'FORBIDDEN':
    case 'ACCOUNT_REMOVED':
      return failureText(code);
  }
}
