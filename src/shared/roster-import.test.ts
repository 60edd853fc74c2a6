import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './api.ts';
import {
  checkRosterRows,
  csvFileName,
  decodeCsvBytes,
  NOT_TEXT_MESSAGE,
  parseRosterCsv,
  ROSTER_IMPORT_LIMITS,
  rosterImportBodySchema,
  rosterToCsv,
} from './roster-import.ts';

const encode = (text: string) => new TextEncoder().encode(text);

/** Parses and fails the test when the file is refused. */
function rowsOf(text: string) {
  const parsed = parseRosterCsv(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed;
}

const checked = (text: string) => checkRosterRows(rowsOf(text).rows);

// What Excel (German/French locale) writes with "CSV UTF-8": BOM, semicolons, CRLF, quotes only where needed.
const EXCEL_SEMICOLON =
  '\uFEFFName;Roll number;Email;Parent name;Parent email\r\n' +
  'Jürgen Müller;10a-01;juergen@schule.example;Anna Müller;anna@schule.example\r\n' +
  '"Dupont; Marie";10a-02;marie@schule.example;Luc Dupont;luc@schule.example\r\n' +
  ';;;;\r\n';

// What Google Sheets downloads: no BOM, commas, LF... and CRLF in fact; quoted where needed.
const GOOGLE_SHEETS =
  "Full Name,Roll No,Email Address,Parent's Name,Parent's Email,Password\r\n" +
  '"Smith, Ann",R-1,ann@example.com,"O\'Brien, Pat",pat@example.com,\r\n' +
  'İpek Yılmaz,R-2,ipek@example.com,Ayşe Yılmaz,ayse@example.com,secret-pass-1\r\n' +
  '李小龍,R-3,lee@example.com,李大龍,lee.parent@example.com,\r\n' +
  'Νίκος Παπαδόπουλος,R-4,nikos@example.com,Μαρία,maria@example.com,';

describe('decodeCsvBytes', () => {
  it('reads UTF-8 with or without its BOM, and refuses bytes that are not UTF-8 text', () => {
    expect(decodeCsvBytes(encode('Name\n'))).toEqual({ ok: true, text: 'Name\n' });
    expect(decodeCsvBytes(encode('\uFEFFName'))).toEqual({ ok: true, text: 'Name' });
    expect(decodeCsvBytes(new Uint8Array([0x4e, 0xe9, 0x0a]))).toEqual({
      ok: false,
      code: 'NOT_TEXT',
      message: NOT_TEXT_MESSAGE,
    });
    // A spreadsheet's .xlsx is a zip; Excel's "Unicode text" is UTF-16.
    expect(decodeCsvBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00]))).toMatchObject({ ok: false });
    expect(decodeCsvBytes(new Uint8Array([0xff, 0xfe, 0x4e, 0x00]))).toMatchObject({ ok: false });
  });
});

describe('parseRosterCsv', () => {
  it("reads Excel's semicolon file with a BOM, a quoted separator and trailing empty rows", () => {
    const parsed = rowsOf(EXCEL_SEMICOLON);
    expect(parsed.separator).toBe(';');
    expect(parsed.rows.map((row) => [row.row, row.cells.name, row.cells.rollNumber])).toEqual([
      [2, 'Jürgen Müller', '10a-01'],
      [3, 'Dupont; Marie', '10a-02'],
    ]);
    expect(parsed.rows[0]!.cells.password).toBe('');
  });

  it('reads headers in Spanish and Arabic, as the screens and the credentials sheet word them (decision 055)', () => {
    const spanish = rowsOf(
      'Nombre;Número de lista;Correo electrónico;Nombre del padre, madre o tutor;"Correo electrónico del padre, madre o tutor";Contraseña\n' +
        'Ana Pérez;r-1;ana@example.com;Luis Pérez;luis@example.com;secreto-12',
    );
    expect(spanish.ignoredColumns).toEqual([]);
    expect(spanish.rows[0]!.cells).toEqual({
      name: 'Ana Pérez',
      rollNumber: 'r-1',
      email: 'ana@example.com',
      parentName: 'Luis Pérez',
      parentEmail: 'luis@example.com',
      password: 'secreto-12',
    });
    // Arabic, with and without the shadda of وليّ, in any order.
    const arabic = rowsOf(
      'الرقم المدرسي,الاسم,البريد الإلكتروني,اسم ولي الأمر,البريد الإلكتروني لوليّ الأمر\nr-2,سارة,s@example.com,أحمد,a@example.com',
    );
    expect(arabic.ignoredColumns).toEqual([]);
    expect(arabic.rows[0]!.cells).toMatchObject({ name: 'سارة', rollNumber: 'r-2', parentName: 'أحمد' });
  });

  it("reads Google Sheets' commas, headers in any case and spelling, names in other scripts", () => {
    const parsed = rowsOf(GOOGLE_SHEETS);
    expect(parsed.separator).toBe(',');
    expect(parsed.rows.map((row) => row.cells)).toEqual([
      {
        name: 'Smith, Ann',
        rollNumber: 'R-1',
        email: 'ann@example.com',
        parentName: "O'Brien, Pat",
        parentEmail: 'pat@example.com',
        password: '',
      },
      expect.objectContaining({ name: 'İpek Yılmaz', password: 'secret-pass-1' }),
      expect.objectContaining({ name: '李小龍', parentName: '李大龍' }),
      expect.objectContaining({ name: 'Νίκος Παπαδόπουλος', parentEmail: 'maria@example.com' }),
    ]);
  });

  it('reads doubled quotes and line breaks inside quotes, and numbers rows as the spreadsheet does', () => {
    const parsed = rowsOf(
      'NAME,ROLL NUMBER,EMAIL,PARENT NAME,PARENT EMAIL\n' +
        '"Ann ""Nan"" Lee",1,a@example.com,"Line one\r\nLine two",p@example.com\r' +
        'Bo,2,b@example.com,Q,q@example.com',
    );
    expect(parsed.rows.map((row) => [row.row, row.cells.name, row.cells.parentName])).toEqual([
      [2, 'Ann "Nan" Lee', 'Line one\r\nLine two'],
      [3, 'Bo', 'Q'],
    ]);
  });

  it('names the columns it ignores and refuses a header without a required column', () => {
    expect(
      rowsOf('Name,Roll number,Email,Parent name,Parent email,Class\nA,1,a@x.example,P,p@x.example,10A').ignoredColumns,
    ).toEqual(['Class']);
    const refused = parseRosterCsv('Name,Email,Parent name\nA,a@x.example,P');
    expect(refused).toMatchObject({
      ok: false,
      code: 'MISSING_COLUMNS',
      params: {
        missing: ['Roll number', 'Parent email'],
        expected: ['Name', 'Roll number', 'Email', 'Parent name', 'Parent email', 'Password'],
      },
      message: expect.stringContaining('Missing: Roll number, Parent email'),
    });
    expect(
      parseRosterCsv('Name,Full name,Roll number,Email,Parent name,Parent email\nA,B,1,a@x.example,P,p@x.example'),
    ).toMatchObject({
      ok: false,
      code: 'DUPLICATE_COLUMN',
      params: { column: 'Name' },
      message: expect.stringContaining('"Name" twice'),
    });
    expect(parseRosterCsv('Name,Roll number,Email,Parent name,Parent email\n,,,,\n')).toMatchObject({
      ok: false,
      code: 'NO_STUDENTS',
      message: expect.stringContaining('no students'),
    });
  });

  it('refuses a file that is not text, an unclosed quote, an empty file and too many rows', () => {
    expect(parseRosterCsv('Name\u0000,x')).toEqual({ ok: false, code: 'NOT_TEXT', message: NOT_TEXT_MESSAGE });
    expect(parseRosterCsv('Name,\uFFFD')).toEqual({ ok: false, code: 'NOT_TEXT', message: NOT_TEXT_MESSAGE });
    expect(
      parseRosterCsv('Name,Roll number,Email,Parent name,Parent email\n"A,1,a@x.example,P,p@x.example'),
    ).toMatchObject({
      ok: false,
      code: 'UNCLOSED_QUOTE',
      params: { line: 2 },
      message: expect.stringContaining('line 2'),
    });
    expect(parseRosterCsv(' \r\n')).toMatchObject({ ok: false, code: 'EMPTY_FILE', message: 'The file is empty.' });
    const header = 'Name,Roll number,Email,Parent name,Parent email\n';
    const row = (index: number) => `S ${index},r${index},s${index}@x.example,P,p@x.example\n`;
    const atLimit = header + Array.from({ length: ROSTER_IMPORT_LIMITS.rows }, (_, index) => row(index)).join('');
    expect(rowsOf(atLimit).rows).toHaveLength(2_000);
    expect(parseRosterCsv(atLimit + row(2_000))).toMatchObject({
      ok: false,
      code: 'TOO_MANY_ROWS',
      params: { rows: 2_001, max: 2_000 },
      message: expect.stringContaining('2,001 students: at most 2,000'),
    });
  });

  it('is what the body schema checks, so the server refuses what the client would', () => {
    const result = rosterImportBodySchema.safeParse({ csv: 'Name\u0000' });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error?.issues ?? [])).toEqual([{ field: 'csv', code: 'NOT_TEXT' }]);
    const quoted = rosterImportBodySchema.safeParse({ csv: 'Name,Roll number\n"A' });
    expect(fieldErrorsOf(quoted.error?.issues ?? [])).toMatchObject([
      { field: 'csv', code: 'UNCLOSED_QUOTE', params: { line: 2 } },
    ]);
  });
});

describe('checkRosterRows', () => {
  it('checks each row with the add-student rules and names every problem with its field', () => {
    const { rows, valid } = checked(
      'Name,Roll number,Email,Parent name,Parent email,Password\n' +
        'Ann,a-1,ann@example.com,Pat,pat@example.com,\n' +
        ',a 2,not-an-email,Pat,pat@example.com,short\n' +
        'Bo,b-1,bo@example.com,Pat,pat@example.com,,extra\n',
    );
    expect(valid.map((row) => row.row)).toEqual([2]);
    expect(rows[0]).toEqual({
      row: 2,
      name: 'Ann',
      rollNumber: 'a-1',
      email: 'ann@example.com',
      parentName: 'Pat',
      parentEmail: 'pat@example.com',
      hasPassword: false,
      problems: [],
    });
    expect(rows[1]!.problems.map((problem) => problem.field)).toEqual(['name', 'rollNumber', 'email', 'password']);
    expect(rows[1]!.problems[0]).toEqual({ field: 'name', code: 'REQUIRED', message: 'REQUIRED' });
    expect(rows[2]!.problems).toEqual([
      { field: null, code: 'EXTRA_CELLS', message: expect.stringContaining('more cells') },
    ]);
  });

  it('finds duplicates within the file by identity key: any case, NFC or NFD, Turkish i', () => {
    const { rows, valid } = checked(
      'Name,Roll number,Email,Parent name,Parent email\n' +
        'A,İpek-1,a@example.com,P,p@example.com\n' +
        'B,ipek-1,B@Example.com,P,p@example.com\n' +
        'C,c-1,b@example.com,P,p@example.com\n' +
        'D,e\u0301cole,d@example.com,P,p@example.com\n' +
        'E,ÉCOLE,e@example.com,P,p@example.com\n',
    );
    expect(rows.map((row) => row.problems.map((problem) => problem.message))).toEqual([
      [],
      ['Roll number is also on row 2 of the file'],
      ['Email is also on row 3 of the file'],
      [],
      ['Roll number is also on row 5 of the file'],
    ]);
    // A shared parent email (siblings) is no problem.
    expect(valid.map((row) => row.row)).toEqual([2, 5]);
  });
});

describe('export', () => {
  it('quotes where needed, defuses formulas, and reads back through the import', () => {
    const entries = [
      {
        name: 'Smith, Ann',
        rollNumber: '-1',
        email: 'ann@example.com',
        parentName: 'Say "hi"\nthere',
        parentEmail: 'p@example.com',
      },
      {
        name: '=HYPERLINK("http://evil")',
        rollNumber: '@2',
        email: 'b@example.com',
        parentName: '+Pat',
        parentEmail: 'q@example.com',
      },
    ];
    const csv = rosterToCsv(entries);
    expect(csv.startsWith('\uFEFFName,Roll number,Email,Parent name,Parent email\r\n')).toBe(true);
    expect(csv).toContain('"Smith, Ann",\'-1,ann@example.com,"Say ""hi""\nthere",p@example.com\r\n');
    expect(csv).toContain('"\'=HYPERLINK(""http://evil"")",\'@2,b@example.com,\'+Pat,q@example.com');
    const readBack = rowsOf(csv).rows.map((row) => row.cells);
    expect(readBack).toEqual(entries.map((entry) => ({ ...entry, password: '' })));
  });

  it('writes a file name from the class name', () => {
    expect(csvFileName('10 A / Maths', 'roster')).toBe('10-A-Maths-roster.csv');
    expect(csvFileName('***', 'credentials')).toBe('class-credentials.csv');
  });
});
