import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, inject, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import { administrator, signInAs, signUpTeacher, teacherClasses } from '../../testing/server-actors.ts';

const STAFF_PATH = '/dashboard/teacher/staff';

async function openAsAdministrator() {
  signInAs(administrator(), 'teacher');
  const app = await openApp(STAFF_PATH);
  await screen.findByRole('heading', { name: 'Invite a teacher' });
  return app;
}

/** The row of the table named `caption` whose heading cell says `name`, once listed. */
async function rowOf(caption: string, name: RegExp | string) {
  const table = await screen.findByRole('table', { name: caption });
  const heading = await within(table).findByRole('rowheader', { name });
  return within(heading.closest('tr') as HTMLElement);
}

describe('the staff screen (decision 030)', () => {
  it('is in an administrator’s menu; creates an invitation, shows its link once, lists and revokes it', async () => {
    const { user } = await openAsAdministrator();
    expect(screen.getByRole('link', { name: 'Staff' })).toHaveAttribute('href', STAFF_PATH);

    const note = `For Ms Invited ${Date.now()}`;
    await user.type(screen.getByRole('textbox', { name: 'Note (optional)' }), note);
    await user.click(screen.getByRole('button', { name: 'Create invitation link' }));

    const link = await screen.findByRole('textbox', { name: 'Invitation link' });
    expect((link as HTMLInputElement).value).toMatch(/\/auth\/teacher\/register\?invitation=[A-Za-z0-9_-]{32}$/);
    expect(screen.getByText(/shown only once and expires in 7 days/)).toBeInTheDocument();

    const row = await rowOf('Invitations, newest first', note);
    expect(row.getByText('pending')).toBeInTheDocument();
    await user.click(row.getByRole('button', { name: /^Revoke/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this invitation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(row.getByText('revoked')).toBeInTheDocument());
    expect(row.queryByRole('button', { name: /^Revoke/ })).not.toBeInTheDocument();
  });

  it('deactivates and reactivates a teacher after asking', async () => {
    // "A …" sorts before the other tests' "Teacher …": on the first page.
    const { registration } = await signUpTeacher({ name: `A Staff ${Date.now()}` });
    const { user } = await openAsAdministrator();

    const row = await rowOf('Teachers, by name', new RegExp(registration.name));
    expect(row.getByText('Active')).toBeInTheDocument();
    await user.click(row.getByRole('button', { name: `Deactivate: ${registration.name}` }));
    const dialog = await screen.findByRole('alertdialog', { name: `Deactivate ${registration.name}?` });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(row.getByText('Deactivated')).toBeInTheDocument());

    await user.click(row.getByRole('button', { name: `Reactivate: ${registration.name}` }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: `Reactivate ${registration.name}?` })).getByRole('button', {
        name: 'Reactivate',
      }),
    );
    await waitFor(() => expect(row.getByText('Active')).toBeInTheDocument());
  });

  it('gives a class without a teacher its owner, who then teaches it', async () => {
    const drama = await signUpTeacher({ name: `A Drama ${Date.now()}` });
    const { user } = await openAsAdministrator();
    const name = inject('componentUntaughtClassName');

    const row = await rowOf('Classes without a teacher, by name', name);
    const picker = row.getByRole('combobox', { name: `Teacher for ${name}` });
    await within(picker).findByRole('option', { name: drama.registration.name });
    await user.selectOptions(picker, drama.registration.name);
    await user.click(row.getByRole('button', { name: `Assign the teacher to ${name}` }));

    expect(await screen.findByText('Every class has a teacher')).toBeInTheDocument();
    const taught = await teacherClasses(drama);
    expect(taught.map((entry) => entry.name)).toEqual([name]);
  });

  it('tells a teacher who is not an administrator that only administrators manage the staff', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    await openApp(STAFF_PATH);
    expect(await screen.findByText('Only administrators can manage the staff')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Staff' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invite a teacher' })).not.toBeInTheDocument();
  });
});
