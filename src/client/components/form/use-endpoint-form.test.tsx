import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { teacherRegistrationSchema } from '#shared/accounts';
import { registerTeacher } from '#shared/contract/sign-in';
import { buildTeacherAccount } from '../../../server/testing/factories.ts';
import { call } from '../../lib/api.ts';
import { TextField } from '../ui/field.tsx';
import { useEndpointForm } from './use-endpoint-form.ts';

/** Teacher registration on the form layer, sent to the real server; its form names `email` "address". */
function RegistrationForm({ schema, onSent }: { schema: z.ZodType; onSent(): void }) {
  const form = useEndpointForm({
    schema,
    toBody: (element) => {
      const { address, ...rest } = Object.fromEntries(new FormData(element).entries());
      return { ...rest, email: address };
    },
    fieldOf: (path) => (path === 'email' ? 'address' : path),
    onSubmit: async (body) => {
      onSent();
      await call(registerTeacher, { body: body as z.input<typeof teacherRegistrationSchema> });
    },
  });
  return (
    <form {...form.formProps} aria-label="Register">
      <TextField label="Name" {...form.field('name')} />
      <TextField label="Subject" {...form.field('subject')} />
      <TextField label="Email" {...form.field('address')} />
      <TextField label="Password" type="password" {...form.field('password')} />
      <button type="submit" disabled={form.isSubmitting}>
        {form.isSubmitting ? 'Registering…' : 'Register'}
      </button>
    </form>
  );
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    if (value) await user.type(screen.getByLabelText(label), value);
  }
}

describe('the form layer', () => {
  it('shows the schema’s problems at their fields and focuses the first one in the form', async () => {
    const user = userEvent.setup();
    let sent = 0;
    render(<RegistrationForm schema={teacherRegistrationSchema} onSent={() => sent++} />);
    await fill(user, { Name: 'Ada', Subject: '', Email: 'not an email', Password: 'short' });
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const subject = screen.getByLabelText('Subject');
    await waitFor(() => expect(subject).toHaveFocus());
    expect(subject).toHaveAttribute('aria-invalid', 'true');
    expect(subject).toHaveAccessibleDescription('Subject is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email must be a valid email address');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    expect(sent).toBe(0);

    // A problem goes as its field changes.
    await user.type(subject, 'Physics');
    expect(subject).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('puts the server’s field errors on the fields they name, through the form’s names', async () => {
    const user = userEvent.setup();
    // A screen schema that lets everything through: only the server judges.
    render(<RegistrationForm schema={z.object({}).loose()} onSent={() => {}} />);
    const registration = buildTeacherAccount();
    await fill(user, { Name: registration.name, Subject: registration.subject, Email: 'nobody@', Password: 'x' });
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('Email must be a valid email address');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('refuses a second submit while one is in flight, and says it is submitting', async () => {
    const user = userEvent.setup();
    let sent = 0;
    render(<RegistrationForm schema={teacherRegistrationSchema} onSent={() => sent++} />);
    const registration = buildTeacherAccount();
    await fill(user, {
      Name: registration.name,
      Subject: registration.subject,
      Email: registration.email,
      Password: registration.password,
    });

    const form = screen.getByRole('form', { name: 'Register' });
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(await screen.findByRole('button', { name: 'Registering…' })).toBeDisabled();
    await screen.findByRole('button', { name: 'Register' });
    expect(sent).toBe(1);
    // The one registration went through: the address is taken now, and no field is marked.
    expect(screen.queryByRole('textbox', { description: /./ })).not.toBeInTheDocument();
    const again = await call(registerTeacher, {
      body: { ...registration, invitation: 'an-invitation-code-of-32-letters' },
    }).catch((error: Error) => error.message);
    expect(again).toMatch(/already/i);
  });
});
