import type { Messages } from '@lingui/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callJson } from '../../../server/testing/server-process.ts';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { logInStudent, signInAs, signUpTeacher } from '../../testing/server-actors.ts';
import { parseRosterCsv } from '#shared/roster-import';
import { ExportRosterButton } from './export-roster-button.tsx';
import { RosterImportButton } from './roster-import-dialog.tsx';
import { patience } from '../../../server/testing/patience.ts';

/**
 * The class-list import and the roster export (decision 034), mounted on their own until the
 * class page (built alongside) places them; the e2e scenario follows with that page.
 */

let unique = 0;
const nextId = () => `${(unique += 1)}${Math.random().toString(36).slice(2, 7)}`;

/** A signed-in teacher with a class of their own, and the two buttons on a page (in English unless told). */
async function mountForNewClass(language: { locale?: string; messages?: Messages } = {}) {
  const teacher = await signUpTeacher();
  signInAs(teacher, 'teacher');
  const className = `Import ${nextId()}`;
  const created = await callJson(location.origin, 'POST', '/api/classes', {
    token: teacher.token,
    body: { name: className },
  });
  expect(created.status).toBe(201);
  const classId = created.body.data._id as string;
  const onImported = vi.fn();
  const user = userEvent.setup();
  renderTranslated(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RosterImportButton classId={classId} className={className} onImported={onImported} />
      <ExportRosterButton classId={classId} className={className} />
    </QueryClientProvider>,
    language,
  );
  return { user, className, onImported };
}

function studentRow(password = '') {
  const id = nextId();
  return { line: `Student ${id};r-${id};s-${id}@school.test;Parent ${id};p-${id}@family.test;${password}`, id };
}
const HEADER = 'Name;Roll number;Email;Parent name;Parent email;Password';

async function openDialog(user: ReturnType<typeof userEvent.setup>, className: string) {
  await user.click(screen.getByRole('button', { name: 'Import students (CSV)' }));
  const dialog = within(await screen.findByRole('dialog', { name: `Import students into ${className}` }));
  await dialog.findByLabelText('CSV file'); // the steps load when the dialog opens
  return dialog;
}

/** A new class's import of one student, started from pasted text: its dialog open. */
async function startImportOfOne() {
  const { user, className } = await mountForNewClass();
  const dialog = await openDialog(user, className);
  await user.click(dialog.getByLabelText('Or paste the list'));
  await user.paste([HEADER, studentRow().line].join('\n'));
  await user.click(dialog.getByRole('button', { name: 'Check the list' }));
  await user.click(await dialog.findByRole('button', { name: 'Import 1 student' }));
  return { user, className, dialog };
}

afterEach(() => vi.restoreAllMocks());

/** Catches the files the page downloads: their text, BOM included, in the order downloaded. */
function catchDownloads() {
  const blobs: Blob[] = [];
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:download')),
    revokeObjectURL: vi.fn(),
  });
  const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return async (index: number) => {
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(index + 1));
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blobs[index]!.arrayBuffer());
  };
}

describe('importing a class list', () => {
  it('shows each problem at its row, keeps Import disabled until the file is right, then shows the passwords once', async () => {
    const { user, className, onImported } = await mountForNewClass();
    const dialog = await openDialog(user, className);
    const rows = [studentRow('own-password-1'), studentRow(), studentRow()];
    const bad = `Bad Row;bad roll;not-an-email;Parent;p@family.test;`;
    const file = new File([`\uFEFF${[HEADER, rows[0]!.line, bad, rows[1]!.line].join('\r\n')}`], 'class.csv', {
      type: 'text/csv',
    });
    await user.upload(dialog.getByLabelText('CSV file'), file);
    await user.click(dialog.getByRole('button', { name: 'Check the list' }));

    expect(await dialog.findByText(/1 of 3 rows have problems/)).toBeInTheDocument();
    const table = within(dialog.getByRole('region', { name: 'Rows of the file' }));
    const badRow = table.getByRole('row', { name: /^3 Bad Row/ });
    expect(within(badRow).getByText('Email must be a valid email address')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Import 3 students' })).toBeDisabled();

    // The teacher fixes the list (pasted here) and checks again.
    const pasted = dialog.getByLabelText('Or paste the list');
    await user.clear(pasted);
    await user.click(pasted);
    await user.paste([HEADER, ...rows.map((row) => row.line)].join('\n'));
    expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();
    await user.click(dialog.getByRole('button', { name: 'Check the list' }));
    expect(await dialog.findByText('All 3 rows can be imported.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Import 3 students' }));

    // Progress, then the sheet with the two generated passwords (the file's own is not shown).
    expect(await dialog.findByRole('progressbar')).toBeInTheDocument();
    expect(
      await dialog.findByText(`3 students imported into ${className}.`, {}, { timeout: patience(10_000) }),
    ).toBeInTheDocument();
    const sheet = within(dialog.getByRole('region', { name: 'Credentials sheet' }));
    expect(sheet.getAllByRole('row')).toHaveLength(3);
    expect(sheet.queryByText(`r-${rows[0]!.id}`)).not.toBeInTheDocument();
    const generatedRow = sheet.getByRole('row', { name: new RegExp(`r-${rows[1]!.id}`) });
    const password = within(generatedRow).getAllByRole('cell')[2]!.textContent;
    expect(password).toMatch(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/);
    expect(await logInStudent(`r-${rows[1]!.id}`, password)).toEqual(expect.any(String));
    expect(onImported).toHaveBeenCalledTimes(1);

    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    await user.click(dialog.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
  });

  it('finds a running import again when the dialog is closed and opened: the passwords are not lost', async () => {
    const { user, className, onImported } = await mountForNewClass();
    let dialog = await openDialog(user, className);
    const rows = [studentRow(), studentRow()];
    await user.click(dialog.getByLabelText('Or paste the list'));
    await user.paste([HEADER, ...rows.map((row) => row.line)].join('\n'));
    await user.click(dialog.getByRole('button', { name: 'Check the list' }));
    expect(await dialog.findByText('All 2 rows can be imported.')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Import 2 students' }));
    expect(await dialog.findByRole('progressbar')).toBeInTheDocument();

    // The teacher closes the dialog while the passwords are prepared, then opens it again.
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Import students (CSV)' }));
    dialog = within(await screen.findByRole('dialog', { name: `Import students into ${className}` }));
    expect(
      await dialog.findByText(`2 students imported into ${className}.`, {}, { timeout: patience(10_000) }),
    ).toBeInTheDocument();
    const sheet = within(dialog.getByRole('region', { name: 'Credentials sheet' }));
    expect(sheet.getAllByRole('row')).toHaveLength(3);
    expect(onImported).toHaveBeenCalledTimes(1);

    // Done: the next opening starts a new import.
    await user.click(dialog.getByRole('button', { name: 'Done' }));
    await openDialog(user, className);
  });

  it('keeps the passwords of a read that is answered after the dialog closed', async () => {
    // The read that sees the import done is held on its way back (as on a slow network) until the
    // teacher has closed the dialog: the server has already handed the passwords over.
    const realFetch = window.fetch.bind(window);
    let sawDone!: () => void;
    const doneRead = new Promise<void>((resolve) => (sawDone = resolve));
    let deliver!: () => void;
    const delivered = new Promise<void>((resolve) => (deliver = resolve));
    vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes('/api/imports/')) return realFetch(input, init);
      const { signal: _ignored, ...sent } = init ?? {};
      const response = await realFetch(input, sent);
      const body = (await response.clone().json()) as { data: { state: string } };
      if (body.data.state === 'done') {
        sawDone();
        await delivered;
      }
      return response;
    });
    const { user, className, dialog } = await startImportOfOne();
    await doneRead;
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    deliver();

    await user.click(screen.getByRole('button', { name: 'Import students (CSV)' }));
    const reopened = within(await screen.findByRole('dialog', { name: `Import students into ${className}` }));
    expect(
      await reopened.findByText(`1 student imported into ${className}.`, {}, { timeout: patience(10_000) }),
    ).toBeInTheDocument();
    expect(within(reopened.getByRole('region', { name: 'Credentials sheet' })).getAllByRole('row')).toHaveLength(2);
  });

  it('reads the progress again after a lost connection: the passwords still come', async () => {
    const realFetch = window.fetch.bind(window);
    let isCut = true;
    vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('/api/imports/') && isCut) {
        isCut = false;
        throw new TypeError('Failed to fetch');
      }
      return realFetch(input, init);
    });
    const { className, dialog } = await startImportOfOne();
    expect(
      await dialog.findByText(`1 student imported into ${className}.`, {}, { timeout: patience(10_000) }),
    ).toBeInTheDocument();
    expect(isCut).toBe(false);
    expect(within(dialog.getByRole('region', { name: 'Credentials sheet' })).getAllByRole('row')).toHaveLength(2);
  });

  it('refuses a file that is not text before anything is sent: nothing to check', async () => {
    const { user, className } = await mountForNewClass();
    const dialog = await openDialog(user, className);
    await user.upload(
      dialog.getByLabelText('CSV file'),
      // A spreadsheet saved with a .csv name but as a workbook (a zip).
      new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])], 'class.csv', { type: 'text/csv' }),
    );
    expect(await dialog.findByRole('alert')).toHaveTextContent('This file is not a text CSV file');
    expect(dialog.getByRole('button', { name: 'Check the list' })).toBeDisabled();
  });

  it("words the file reader's refusal from its code, naming the missing columns", async () => {
    const { user, className } = await mountForNewClass();
    const dialog = await openDialog(user, className);
    await user.click(dialog.getByLabelText('Or paste the list'));
    await user.paste('Name,Email,Parent name\nAnn,ann@x.example,Pat');
    await user.click(dialog.getByRole('button', { name: 'Check the list' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'The first line must name the columns. Missing: Roll number and Parent email. Expected: Name, Roll number, Email, Parent name, Parent email, and Password (Password is optional).',
    );
  });
});

describe('exporting the roster', () => {
  it('downloads the roster as a CSV the import reads back', async () => {
    const { user, className } = await mountForNewClass();
    const dialog = await openDialog(user, className);
    const row = studentRow();
    await user.click(dialog.getByLabelText('Or paste the list'));
    await user.paste(`${HEADER}\n${row.line}`);
    await user.click(dialog.getByRole('button', { name: 'Check the list' }));
    await user.click(await dialog.findByRole('button', { name: 'Import 1 student' }));
    await dialog.findByText(`1 student imported into ${className}.`, {}, { timeout: patience(10_000) });
    await user.click(dialog.getByRole('button', { name: 'Done' }));

    const downloaded = catchDownloads();
    await user.click(screen.getByRole('button', { name: 'Export roster (CSV)' }));
    // A BOM first, so Excel reads UTF-8.
    expect(await downloaded(0)).toBe(
      `\uFEFFName,Roll number,Email,Parent name,Parent email\r\n${row.line.replaceAll(';', ',').replace(/,$/, '')}\r\n`,
    );
  });
});

describe('the files in the teacher’s language (issue 32 point 5, decision 055 “CSV headers”)', () => {
  it('words the credentials sheet’s headers in Spanish, and exports a roster the import reads back', async () => {
    const { messages } = (await import('../../locales/es/messages.po')) as { messages: Messages };
    const { user, className } = await mountForNewClass({ locale: 'es', messages });
    await user.click(screen.getByRole('button', { name: 'Importar estudiantes (CSV)' }));
    const dialog = within(await screen.findByRole('dialog', { name: `Importar estudiantes a ${className}` }));
    await dialog.findByLabelText('Archivo CSV');
    // The teacher named the columns in Spanish, as the screens do.
    const id = nextId();
    const student = {
      name: `Ana Núñez ${id}`,
      rollNumber: `r-${id}`,
      email: `s-${id}@school.test`,
      parentName: `Luis Núñez ${id}`,
      parentEmail: `p-${id}@family.test`,
    };
    await user.click(dialog.getByLabelText('O pega la lista'));
    await user.paste(
      `Nombre;Número de lista;Correo electrónico;Nombre del padre, madre o tutor;Correo electrónico del padre, madre o tutor\n${Object.values(student).join(';')}`,
    );
    await user.click(dialog.getByRole('button', { name: 'Comprobar la lista' }));
    await user.click(await dialog.findByRole('button', { name: 'Importar 1 estudiante' }));
    await dialog.findByText(`1 estudiante importado a ${className}.`, {}, { timeout: patience(10_000) });
    const password = within(dialog.getByRole('region', { name: 'Hoja de datos de acceso' })).getAllByRole('cell')[2]!
      .textContent;

    const downloaded = catchDownloads();
    await user.click(dialog.getByRole('button', { name: 'Descargar CSV' }));
    // For people: headers in the reader's language, with a BOM so Excel reads UTF-8.
    expect(await downloaded(0)).toBe(
      `\uFEFFNombre,Número de lista,Contraseña\r\n${student.name},${student.rollNumber},${password}\r\n`,
    );

    await user.click(dialog.getByRole('button', { name: 'Listo' }));
    await user.click(screen.getByRole('button', { name: 'Exportar la lista de la clase (CSV)' }));
    // To be read back: the import's stable headers, whatever the teacher's language.
    const roster = await downloaded(1);
    expect(roster.startsWith('\uFEFFName,Roll number,Email,Parent name,Parent email\r\n')).toBe(true);
    const readBack = parseRosterCsv(roster);
    expect(readBack.ok && readBack.rows.map((row) => row.cells)).toEqual([{ ...student, password: '' }]);
  });
});
