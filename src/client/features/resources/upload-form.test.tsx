import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import { classCodeOf, listResources, signInAs, signUpTeacher } from '../../testing/server-actors.ts';
import { patience } from '../../../server/testing/patience.ts';

const RESOURCES_PATH = '/dashboard/teacher/resources';

/** A teacher with a class of their own to upload into (picked from their classes: decision 031). */
async function openAsTeacher() {
  const teacher = await signUpTeacher();
  const className = `7B ${crypto.randomUUID().slice(0, 8)}`;
  await classCodeOf(className, teacher);
  signInAs(teacher, 'teacher');
  const app = await openApp(RESOURCES_PATH);
  const form = within((await screen.findByRole('heading', { name: 'Upload Resource' })).closest('section')!);
  return { teacher, form, className, ...app };
}

const textFile = (name: string, bytes: number) => new File(['x'.repeat(bytes)], name, { type: 'text/plain' });

/** Every value the upload's progress bar showed, in order, while `during` ran. */
async function progressShown(during: () => Promise<void>) {
  const values: string[] = [];
  const observer = new MutationObserver(() => {
    const value = document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
    if (value != null && values.at(-1) !== value) values.push(value);
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  try {
    await during();
  } finally {
    observer.disconnect();
  }
  return values;
}

describe('the upload form', () => {
  it('says at once when the chosen file is over the server’s limit', async () => {
    const { form, user } = await openAsTeacher();
    const fileInput = form.getByLabelText(/^File/);
    expect(await form.findByText('Documents, images, audio or video, up to 2 MB.')).toBeInTheDocument();

    await user.upload(fileInput, textFile('big.txt', 2 * 1024 * 1024 + 1));
    expect(form.getByText('This file is 2 MB; files up to 2 MB can be uploaded.')).toBeInTheDocument();
    expect(fileInput).toHaveAttribute('aria-invalid', 'true');

    await user.upload(fileInput, textFile('small.txt', 1024));
    expect(form.queryByText(/files up to 2 MB can be uploaded/)).not.toBeInTheDocument();
    expect(fileInput).not.toHaveAttribute('aria-invalid');
  });

  it('sends the file with its progress, then lists it', async () => {
    const { teacher, form, user, className } = await openAsTeacher();
    await user.upload(form.getByLabelText(/^File/), textFile('fractions.txt', 512 * 1024));
    await user.selectOptions(await form.findByRole('combobox', { name: /^Class/ }), className);
    await user.type(form.getByRole('textbox', { name: 'Description (optional)' }), 'Worksheet');

    const progress = await progressShown(async () => {
      await user.click(form.getByRole('button', { name: 'Upload' }));
      await screen.findByRole('link', { name: /fractions\.txt/ }, { timeout: patience(5000) });
    });

    expect(progress[0]).toBe('0');
    expect(progress.at(-1)).toBe('100');
    expect(form.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(form.getByLabelText(/^File/)).toHaveValue('');
    const stored = await listResources(teacher);
    expect(stored.map((resource) => [resource.fileName, resource.class, resource.description])).toEqual([
      ['fractions.txt', className, 'Worksheet'],
    ]);
  });

  it('shows the server’s refusal of the file under the file field', async () => {
    const { teacher, form, user, className } = await openAsTeacher();
    const fileInput = form.getByLabelText(/^File/);
    // No known type and not text: the server reads its first bytes and refuses it (415).
    await user.upload(fileInput, new File([new Uint8Array([0, 1, 2, 3, 0, 255, 254])], 'tool.bin'));
    await user.selectOptions(await form.findByRole('combobox', { name: /^Class/ }), className);
    await user.click(form.getByRole('button', { name: 'Upload' }));

    const refusal = /This type of file cannot be shared/;
    expect(await form.findByText(refusal, {}, { timeout: patience(5000) })).toBeInTheDocument();
    expect(fileInput).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(fileInput).toHaveFocus());
    expect(form.getByRole('button', { name: 'Upload' })).not.toHaveAttribute('aria-disabled', 'true');
    expect(await listResources(teacher)).toEqual([]);
  });
});
