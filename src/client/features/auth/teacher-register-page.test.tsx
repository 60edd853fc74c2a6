import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildTeacherAccount } from '../../../server/testing/factories.ts';
import { failureText } from '../../lib/error-messages.ts';
import { openApp } from '../../testing/open-app.tsx';
import { invitationCode, revokedInvitationCode } from '../../testing/server-actors.ts';

const REGISTER_PATH = '/auth/teacher/register';

async function fillIn(user: Awaited<ReturnType<typeof openApp>>['user']) {
  const account = buildTeacherAccount();
  await user.type(screen.getByRole('textbox', { name: 'Full name' }), account.name);
  await user.type(screen.getByRole('textbox', { name: 'Subject' }), account.subject);
  await user.type(screen.getByRole('textbox', { name: 'Email' }), account.email);
  await user.type(screen.getByLabelText(/^Password/), account.password);
  return account;
}

describe('teacher registration by invitation (decision 030)', () => {
  it('names the school of the link, sends its code with the form and leads to the login', async () => {
    const code = await invitationCode('For the registration test');
    const { user } = await openApp(`${REGISTER_PATH}?invitation=${code}`, { inAddressBar: true });

    expect(await screen.findByText(/You're invited to join/)).toBeInTheDocument();
    // The code came in the link: no field asks for it.
    expect(screen.queryByRole('textbox', { name: 'Invitation code' })).not.toBeInTheDocument();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('heading', { name: 'Teacher login' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/Registration successful/);
  });

  it('says why a revoked invitation cannot be used, with no form and a way on', async () => {
    const code = await revokedInvitationCode();
    await openApp(`${REGISTER_PATH}?invitation=${code}`, { inAddressBar: true });

    expect(await screen.findByRole('alert')).toHaveTextContent(failureText('INVITATION_REVOKED'));
    expect(screen.getByRole('heading', { name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Enter another code' })).toHaveAttribute('href', REGISTER_PATH);
  });

  it('asks for the code when the address has none, and registers with a pasted one', async () => {
    const code = await invitationCode();
    const { user } = await openApp(REGISTER_PATH, { inAddressBar: true });

    const codeField = await screen.findByRole('textbox', { name: 'Invitation code' });
    await user.type(codeField, 'not a code');
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(codeField).toHaveFocus());
    expect(codeField).toHaveAccessibleDescription('This is not an invitation code: open the link you were given');

    await user.clear(codeField);
    await user.click(codeField);
    await user.paste(code);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Teacher login' })).toBeInTheDocument();
  });
});
