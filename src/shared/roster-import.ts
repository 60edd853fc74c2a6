import { z } from 'zod/mini';
import { studentAccountFields, studentDetailFields } from './accounts.ts';
import { fieldCodeOf } from './api.ts';
import { FIELD_ERROR_CODES, fieldCode, type FieldErrorCode, type FieldErrorParams } from './field-error-codes.ts';
import type { ErrorCode } from './error-codes.ts';
import { bodyObject } from './fields.ts';
import { emailKey, identityKey } from './identity.ts';
import { JSON_BYTES_PER_CHARACTER } from './limits.ts';

/**
 * A class list as spreadsheets write it (issue 19 point 6, decision 034): reading the CSV,
 * checking each row with the add-student form's own rules, and writing rosters and credentials
 * sheets back out. Pure: the browser and the server run the same code on the same text.
 */

export const ROSTER_IMPORT_LIMITS = {
  rows: 2_000,
  // 300 characters a row on average: a full row of long names and addresses is ~200.
  csvCharacters: 600_000,
} as const;

/** The import calls carry the file as JSON text: every character at its worst JSON size, and the envelope. */
export const ROSTER_IMPORT_BODY_LIMIT_BYTES = ROSTER_IMPORT_LIMITS.csvCharacters * JSON_BYTES_PER_CHARACTER + 1024;

/** The columns of a class list, in the order an export and the sample write them. */
export const ROSTER_FIELDS = ['name', 'rollNumber', 'email', 'parentName', 'parentEmail', 'password'] as const;
export type RosterField = (typeof ROSTER_FIELDS)[number];

/** The header each column is written with; any spelling of HEADER_NAMES is read. */
export const ROSTER_HEADERS: Record<RosterField, string> = {
  name: 'Name',
  rollNumber: 'Roll number',
  email: 'Email',
  parentName: 'Parent name',
  parentEmail: 'Parent email',
  password: 'Password',
};

/** Header texts as a teacher may have typed them, compacted by headerKey. */
const HEADER_NAMES: Record<RosterField, readonly string[]> = {
  name: ['name', 'fullname', 'studentname', 'student'],
  rollNumber: ['rollnumber', 'rollno', 'roll', 'username', 'accountusername', 'studentid'],
  email: ['email', 'emailaddress', 'studentemail', 'mail'],
  parentName: ['parentname', 'parentsname', 'parent', 'guardian', 'guardianname'],
  parentEmail: ['parentemail', 'parentsemail', 'parentemailaddress', 'guardianemail', 'parentmail'],
  password: ['password', 'initialpassword'],
};

/**
 * The headers in the interface's other languages, as its screens and credentials sheet word them
 * (decision 055, "CSV headers"): a teacher who names the columns in Spanish or Arabic is read too.
 * Exports still write ROSTER_HEADERS, the file's stable names.
 */
const TRANSLATED_HEADERS: Record<RosterField, readonly string[]> = {
  name: ['Nombre', 'Nombre completo', 'الاسم', 'الاسم الكامل'],
  rollNumber: ['Número de lista', 'Nombre de usuario', 'الرقم المدرسي', 'اسم المستخدم'],
  email: ['Correo electrónico', 'Correo', 'البريد الإلكتروني'],
  parentName: ['Nombre del padre, madre o tutor', 'Nombre del tutor', 'اسم وليّ الأمر', 'اسم ولي الأمر'],
  parentEmail: [
    'Correo electrónico del padre, madre o tutor',
    'Correo del tutor',
    'البريد الإلكتروني لوليّ الأمر',
    'البريد الإلكتروني لولي الأمر',
  ],
  password: ['Contraseña', 'كلمة المرور'],
};

/** "Parent's name", "PARENT_NAME", " parent name " all read as `parentsname`/`parentname`. */
const headerKey = (header: string) => identityKey(header).replace(/[\s_.'’()#-]/g, '');

const FIELD_OF_HEADER = new Map(
  ROSTER_FIELDS.flatMap((field) => [
    ...HEADER_NAMES[field].map((name) => [name, field] as const),
    ...TRANSLATED_HEADERS[field].map((name) => [headerKey(name), field] as const),
  ]),
);

const REQUIRED_FIELDS = ROSTER_FIELDS.filter((field) => field !== 'password');

/** What a file that cannot be read as a class list says, before any row is looked at. */
export const NOT_TEXT_MESSAGE =
  'This file is not a text CSV file. In your spreadsheet choose "Save as" or "Download" as CSV (UTF-8) and choose that file.';

/** One data row as read: its cells by field ('' when absent) and its row number as the spreadsheet shows it. */
export type RosterCsvRow = { row: number; cells: Record<RosterField, string>; extraCells: boolean };

/**
 * Why a file cannot be read as a class list: its code (field-error-codes.ts) and parameters, which
 * clients word, and the English message for logs and API users.
 */
export type RosterFileRefusal = {
  ok: false;
  code: Extract<
    FieldErrorCode,
    | 'NOT_TEXT'
    | 'EMPTY_FILE'
    | 'UNCLOSED_QUOTE'
    | 'DUPLICATE_COLUMN'
    | 'MISSING_COLUMNS'
    | 'NO_STUDENTS'
    | 'TOO_MANY_ROWS'
  >;
  params?: FieldErrorParams;
  message: string;
};

const NOT_TEXT: RosterFileRefusal = { ok: false, code: 'NOT_TEXT', message: NOT_TEXT_MESSAGE };

export type ParsedRosterCsv =
  { ok: true; rows: RosterCsvRow[]; separator: string; ignoredColumns: string[] } | RosterFileRefusal;

/**
 * The text of a chosen file: UTF-8 with or without its BOM. A UTF-16 file (Excel's "Unicode
 * text") or anything that is not UTF-8 is refused here, where the bytes still are.
 */
export function decodeCsvBytes(bytes: Uint8Array): { ok: true; text: string } | RosterFileRefusal {
  const isUtf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (isUtf16 || bytes.includes(0)) return NOT_TEXT;
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return NOT_TEXT;
  }
}

/** The separator of the header line: the most frequent of `,`, `;` and tab outside quotes; a comma if none. */
function guessSeparator(text: string): string {
  const counts = new Map([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let isQuoted = false;
  for (const character of text) {
    if (character === '"') isQuoted = !isQuoted;
    else if (!isQuoted && (character === '\n' || character === '\r')) break;
    else if (!isQuoted && counts.has(character)) counts.set(character, counts.get(character)! + 1);
  }
  let best = ',';
  for (const [separator, count] of counts) if (count > counts.get(best)!) best = separator;
  return best;
}

/** RFC 4180 records: quoted fields with doubled quotes and line breaks; CRLF, LF or CR between records. */
function splitRecords(text: string, separator: string): { records: string[][] } | { unclosedAt: number } {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let isQuoted = false;
  let line = 1;
  let quoteLine = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (isQuoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') isQuoted = false;
      else {
        if (character === '\n' || (character === '\r' && text[index + 1] !== '\n')) line += 1;
        cell += character;
      }
    } else if (character === '"' && cell.trim() === '') {
      // A quote opens a field only at its start (spaces before it are the spreadsheet's padding).
      isQuoted = true;
      quoteLine = line;
      cell = '';
    } else if (character === separator) {
      record.push(cell);
      cell = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      line += 1;
    } else cell += character;
  }
  if (isQuoted) return { unclosedAt: quoteLine };
  if (cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return { records };
}

/** The export writes `'` before a cell a spreadsheet would run as a formula; reading takes it off again. */
const unguard = (cell: string) => (/^'[=+\-@]/.test(cell) ? cell.slice(1) : cell);

/**
 * A class list's text as rows by field. Refuses (with a code and parameters for a sentence a
 * teacher can act on) a file that is not text, has no header for a required column, a quote never
 * closed, or too many rows.
 */
export function parseRosterCsv(input: string): ParsedRosterCsv {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  // NUL never occurs in text; U+FFFD is what a decoder leaves for bytes that were not UTF-8.
  if (text.includes('\u0000') || text.includes('\uFFFD')) return NOT_TEXT;
  if (text.trim() === '') return { ok: false, code: 'EMPTY_FILE', message: 'The file is empty.' };
  const separator = guessSeparator(text);
  const split = splitRecords(text, separator);
  if ('unclosedAt' in split)
    return {
      ok: false,
      code: 'UNCLOSED_QUOTE',
      params: { line: split.unclosedAt },
      message: `A quoted cell that starts on line ${split.unclosedAt} is never closed: check the quotes (") there.`,
    };
  const [header = [], ...body] = split.records;
  const columns = header.map((name) => FIELD_OF_HEADER.get(headerKey(name)));
  const ignoredColumns = header.filter((name, index) => columns[index] === undefined && name.trim() !== '');
  for (const field of ROSTER_FIELDS) {
    if (columns.filter((column) => column === field).length > 1)
      return {
        ok: false,
        code: 'DUPLICATE_COLUMN',
        params: { column: ROSTER_HEADERS[field] },
        message: `The header names the column "${ROSTER_HEADERS[field]}" twice.`,
      };
  }
  const missing = REQUIRED_FIELDS.filter((field) => !columns.includes(field));
  if (missing.length > 0) {
    const params = {
      missing: missing.map((field) => ROSTER_HEADERS[field]),
      expected: ROSTER_FIELDS.map((field) => ROSTER_HEADERS[field]),
    };
    return {
      ok: false,
      code: 'MISSING_COLUMNS',
      params,
      message: `The first line must name the columns. Missing: ${params.missing.join(', ')}. Expected: ${params.expected.join(', ')} (Password is optional).`,
    };
  }

  const rows: RosterCsvRow[] = [];
  body.forEach((record, index) => {
    // Spreadsheets end a sheet with empty rows of separators: they are no student.
    if (record.every((cell) => cell.trim() === '')) return;
    const cells = Object.fromEntries(ROSTER_FIELDS.map((field) => [field, ''])) as Record<RosterField, string>;
    record.forEach((cell, column) => {
      const field = columns[column];
      if (field) cells[field] = unguard(cell);
    });
    const extraCells = record.slice(header.length).some((cell) => cell.trim() !== '');
    // Row 1 is the header, as the spreadsheet numbers it.
    rows.push({ row: index + 2, cells, extraCells });
  });
  if (rows.length === 0) return { ok: false, code: 'NO_STUDENTS', message: 'The file has a header but no students.' };
  if (rows.length > ROSTER_IMPORT_LIMITS.rows)
    return {
      ok: false,
      code: 'TOO_MANY_ROWS',
      params: { rows: rows.length, max: ROSTER_IMPORT_LIMITS.rows },
      message: `The file has ${rows.length.toLocaleString('en-GB')} students: at most ${ROSTER_IMPORT_LIMITS.rows.toLocaleString('en-GB')} can be imported at once. Split it into smaller files.`,
    };
  return { ok: true, rows, separator, ignoredColumns };
}

/** One row is checked by the add-student form's own rules; a blank password means "generate one". */
const rosterImportRowSchema = z.object({
  ...studentDetailFields,
  password: z.optional(studentAccountFields.password),
});
export type RosterImportRow = z.infer<typeof rosterImportRowSchema>;

/** A problem's parameters: the numbers and names its wording needs. */
const problemParamsSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
);

export const rowProblemSchema = z.strictObject({
  /** The column the problem is in, or null for the row as a whole. */
  field: z.nullable(z.enum(ROSTER_FIELDS)),
  /** What is wrong (field-error-codes.ts) and its parameters, for clients to word. */
  code: z.enum(FIELD_ERROR_CODES),
  params: z.optional(problemParamsSchema),
  /** The problem in English, for logs and API users. */
  message: z.string(),
});
export type RowProblem = z.infer<typeof rowProblemSchema>;

/** A row as the check answers it: the values read (never a password), and every problem of it. */
export const checkedRowSchema = z.strictObject({
  row: z.int(),
  name: z.string(),
  rollNumber: z.string(),
  email: z.string(),
  parentName: z.string(),
  parentEmail: z.string(),
  /** A password was given in the file; otherwise one is generated and shown once after the import. */
  hasPassword: z.boolean(),
  problems: z.array(rowProblemSchema),
});
export type CheckedRow = z.infer<typeof checkedRowSchema>;

/** A row that passed the field rules, with its keys for the duplicate and the school's look-up. */
export type ValidRow = { row: number; value: RosterImportRow; rollNumberKey: string; emailKey: string };

export type RowsCheck = { rows: CheckedRow[]; valid: ValidRow[] };

/**
 * Each row by the field rules, then duplicates within the file by identity keys (decision 024).
 * The schema's problems carry codes only (issue 32 point 3): `wordOf` gives their English
 * message (the server's words; a client words the codes itself).
 */
export function checkRosterRows(
  parsed: RosterCsvRow[],
  wordOf: (problem: Pick<RowProblem, 'code' | 'params'>) => string = ({ code }) => code,
): RowsCheck {
  const rows: CheckedRow[] = [];
  const valid: ValidRow[] = [];
  const firstRowOf = { rollNumber: new Map<string, number>(), email: new Map<string, number>() };
  for (const { row, cells, extraCells } of parsed) {
    const problems: RowProblem[] = [];
    if (extraCells)
      problems.push({
        field: null,
        code: 'EXTRA_CELLS',
        message: 'This row has more cells than the header has columns',
      });
    const result = rosterImportRowSchema.safeParse({
      ...cells,
      password: cells.password === '' ? undefined : cells.password,
    });
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = issue.path[0] as RosterField;
        // One problem per field: the first rule it broke.
        if (!problems.some((problem) => problem.field === field)) {
          const coded = fieldCodeOf(issue);
          problems.push({ field, ...coded, message: wordOf(coded) });
        }
      }
    }
    const keys = {
      rollNumber: identityKey(cells.rollNumber.normalize('NFC').trim()),
      email: emailKey(cells.email.normalize('NFC').trim()),
    };
    for (const field of ['rollNumber', 'email'] as const) {
      if (keys[field] === '' || problems.some((problem) => problem.field === field)) continue;
      const first = firstRowOf[field].get(keys[field]);
      if (first === undefined) firstRowOf[field].set(keys[field], row);
      else
        problems.push({
          field,
          code: 'DUPLICATE_IN_FILE',
          params: { firstRow: first },
          message: `${field === 'email' ? 'Email' : 'Roll number'} is also on row ${first} of the file`,
        });
    }
    rows.push({
      row,
      name: cells.name.trim(),
      rollNumber: cells.rollNumber.trim(),
      email: cells.email.trim(),
      parentName: cells.parentName.trim(),
      parentEmail: cells.parentEmail.trim(),
      hasPassword: cells.password !== '',
      problems,
    });
    if (result.success && problems.length === 0)
      valid.push({ row, value: result.data, rollNumberKey: keys.rollNumber, emailKey: keys.email });
  }
  return { rows, valid };
}

/** Both import calls take the file's text; the client read its bytes (decodeCsvBytes). */
export const rosterImportBodySchema = bodyObject({
  csv: z.string().check(
    z.minLength(1),
    z.maxLength(ROSTER_IMPORT_LIMITS.csvCharacters),
    z.superRefine((csv, context) => {
      const parsed = parseRosterCsv(csv);
      if (!parsed.ok) context.addIssue({ code: 'custom', params: fieldCode(parsed.code, parsed.params) });
    }),
  ),
});
export type RosterImportBody = z.infer<typeof rosterImportBodySchema>;

/** The check's answer: every row with its problems; nothing was written. */
export const rosterImportCheckSchema = z.strictObject({
  rows: z.array(checkedRowSchema),
  /** Header names that are none of the roster's columns: read past, not imported. */
  ignoredColumns: z.array(z.string()),
  /** Rows with at least one problem: the import is refused while this is not 0. */
  rowsWithProblems: z.int(),
});
export type RosterImportCheck = z.infer<typeof rosterImportCheckSchema>;

export const startedRosterImportSchema = z.strictObject({ importId: z.string() });

/** A password generated for a row without one: shown once. */
export const rosterImportCredentialSchema = z.strictObject({
  row: z.int(),
  name: z.string(),
  rollNumber: z.string(),
  password: z.string(),
});
export type RosterImportCredential = z.infer<typeof rosterImportCredentialSchema>;

export const ROSTER_IMPORT_STATES = ['hashing', 'writing', 'done', 'failed'] as const;

/**
 * Why a failed import wrote nothing, for clients to word (issue 32 point 3): its own reasons, or
 * the code of the refusal that stopped it (the class archived or gone meanwhile, the account removed).
 */
export const ROSTER_IMPORT_FAILURES = {
  TAKEN_DURING_IMPORT:
    'A roll number or email of the file (`field`: rollNumber or email) was given to another student while the import ran',
  SERVER_RESTARTED: 'The server restarted while the import ran',
  IMPORT_FAILED: 'The import failed on the server side (a bug, logged)',
  CLASS_ARCHIVED: 'The class was archived while the import ran',
  NOT_FOUND: 'The class was deleted while the import ran',
  FORBIDDEN: 'The teacher was removed from the class while the import ran',
  ACCOUNT_REMOVED: "The teacher's account was removed while the import ran",
} as const satisfies Record<string, string> & Partial<Record<ErrorCode, string>>;
export type RosterImportFailureCode = keyof typeof ROSTER_IMPORT_FAILURES;

export const rosterImportFailureSchema = z.strictObject({
  code: z.enum(Object.keys(ROSTER_IMPORT_FAILURES) as [RosterImportFailureCode, ...RosterImportFailureCode[]]),
  params: z.optional(problemParamsSchema),
});
export type RosterImportFailure = z.infer<typeof rosterImportFailureSchema>;

export const rosterImportStatusSchema = z.strictObject({
  state: z.enum(ROSTER_IMPORT_STATES),
  /** Passwords hashed so far, of `total`. */
  done: z.int(),
  total: z.int(),
  /** Why a failed import wrote nothing, in English, for logs and API users. */
  error: z.optional(z.string()),
  /** Why a failed import wrote nothing: its code and parameters, which clients word. */
  failure: z.optional(rosterImportFailureSchema),
  /** The generated passwords, on the first read after `done` only (decision 034). */
  credentials: z.optional(z.array(rosterImportCredentialSchema)),
  /** Students imported, once done. */
  imported: z.optional(z.int()),
});
export type RosterImportStatus = z.infer<typeof rosterImportStatusSchema>;

/** Spreadsheets run a cell that starts with one of these as a formula (CSV injection, OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\r\n]|^\s|\s$/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/**
 * CSV text of a table: comma-separated, CRLF, quoted where needed, formulas defused, with a BOM so
 * Excel reads it as UTF-8.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `\uFEFF${[header, ...rows].map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

export type RosterExportEntry = {
  name: string;
  rollNumber: string;
  email: string;
  parentName: string;
  parentEmail: string;
};

/**
 * A class's roster as a CSV the import reads back (same headers, no password column). Its headers
 * are ROSTER_HEADERS in every language: a file meant to be read back keeps stable names (decision
 * 055, "CSV headers"); the credentials sheet, read by people, is worded by the client.
 */
export function rosterToCsv(entries: readonly RosterExportEntry[]): string {
  const fields = ROSTER_FIELDS.filter((field) => field !== 'password');
  return toCsv(
    fields.map((field) => ROSTER_HEADERS[field]),
    entries.map((entry) => fields.map((field) => entry[field])),
  );
}

/** A CSV text as a file to download (its BOM is in the text). */
export const csvBlob = (text: string) => new Blob([text], { type: 'text/csv;charset=utf-8' });

/** A file name from a class name: letters and digits kept, anything else a dash. */
export const csvFileName = (className: string, what: string) =>
  `${
    className
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'class'
  }-${what}.csv`;
