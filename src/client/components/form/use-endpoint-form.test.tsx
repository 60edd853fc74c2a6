import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@lingui/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import toast from 'react-hot-toast/headless';
import { I18nProvider } from '@lingui/react';
import type { Messages } from '@lingui/core';
import { studentRegistrationSchema } from '#shared/accounts';
import { registerStudent } from '#shared/contract/sign-in';
import { buildStudentRegistration } from '../../../server/testing/factories.ts';
import { call } from '../../lib/api.ts';
import { classCodeOf } from '../../testing/server-actors.ts';
import { TextField } from '../ui/field.tsx';
import { Toaster } from '../ui/toaster.tsx';
import { useEndpointForm } from './use-endpoint-form.ts';

/** Student registration on the form layer, sent to the real server; its form names `email` "address". */
function RegistrationForm({ schema, onSent }: { schema: z.ZodMiniType; onSent(): void }) {
  const form = useEndpointForm({
    schema,
    toBody: (element) => {
      const { address, ...rest } = Object.fromEntries(new FormData(element).entries());
      return { ...rest, email: address };
    },
    fieldOf: (path) => (path === 'email' ? 'address' : path),
    onSubmit: async (body) => {
      onSent();
      await call(registerStudent, { body: body as z.input<typeof studentRegistrationSchema> });
    },
  });
  return (
    <form {...form.formProps} aria-label="Register">
      <TextField label="Name" {...form.field('name')} />
      <TextField label="Account username" {...form.field('rollNumber')} />
      <TextField label="Class code" {...form.field('classCode')} />
      <TextField label="Email" {...form.field('address')} />
      <TextField label="Parent name" {...form.field('parentName')} />
      <TextField label="Parent email" {...form.field('parentEmail')} />
      <TextField label="Password" type="password" {...form.field('password')} />
      <button type="submit" disabled={form.isSubmitting}>
        {form.isSubmitting ? 'Registering…' : 'Register'}
      </button>
    </form>
  );
}

/** The form's labels and a registration's values. */
const filled = (registration: ReturnType<typeof buildStudentRegistration>) => ({
  Name: registration.name,
  'Account username': registration.rollNumber,
  'Class code': registration.classCode,
  Email: registration.email,
  'Parent name': registration.parentName,
  'Parent email': registration.parentEmail,
  Password: registration.password,
});

async function fill(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    if (value) await user.type(screen.getByLabelText(label), value);
  }
}

// The client's texts are worded in the active locale: English, the code's own.
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('the form layer', () => {
  it('shows the schema’s problems at their fields and focuses the first one in the form', async () => {
    const user = userEvent.setup();
    let sent = 0;
    render(<RegistrationForm schema={studentRegistrationSchema} onSent={() => sent++} />);
    await fill(user, {
      Name: 'Ada',
      'Account username': `ada-${Date.now()}`,
      'Class code': '',
      Email: 'not an email',
      'Parent name': 'Lovelace',
      'Parent email': 'parent@family.test',
      Password: 'short',
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const className = screen.getByLabelText('Class code');
    await waitFor(() => expect(className).toHaveFocus());
    expect(className).toHaveAttribute('aria-invalid', 'true');
    expect(className).toHaveAccessibleDescription('Class code is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email must be a valid email address');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    expect(sent).toBe(0);

    // A problem goes as its field changes.
    await user.type(className, 'ABCD-EFGH');
    expect(className).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('puts the server’s field errors on the fields they name, through the form’s names', async () => {
    const user = userEvent.setup();
    // A screen schema that lets everything through: only the server judges.
    render(<RegistrationForm schema={z.looseObject({})} onSent={() => {}} />);
    const registration = buildStudentRegistration();
    await fill(user, { ...filled(registration), Email: 'nobody@', Password: 'x' });
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('Email must be a valid email address');
    await waitFor(() => expect(email).toHaveFocus());
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('words the server’s field errors from their codes, whatever their messages say (issue 32 point 3)', async () => {
    // A stand-in between the form and the real server rewrites every failure's sentences.
    const serverFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const answer = await serverFetch(input, init);
      if (answer.ok) return answer;
      const body = (await answer.json()) as { message: string; errors?: object[] };
      const reworded = {
        ...body,
        message: 'Reworded by the server',
        errors: body.errors?.map((error) => ({ ...error, message: 'Reworded by the server' })),
      };
      return new Response(JSON.stringify(reworded), { status: answer.status, headers: answer.headers });
    });
    try {
      const user = userEvent.setup();
      render(<RegistrationForm schema={z.looseObject({})} onSent={() => {}} />);
      const registration = buildStudentRegistration();
      await fill(user, { ...filled(registration), Email: 'nobody@', Password: 'short' });
      await user.click(screen.getByRole('button', { name: 'Register' }));

      const email = screen.getByLabelText('Email');
      await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
      expect(spy).toHaveBeenCalled();
      expect(email).toHaveAccessibleDescription('Email must be a valid email address');
      expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 8 characters');
      expect(document.body).not.toHaveTextContent('Reworded by the server');
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a second submit while one is in flight, and says it is submitting', async () => {
    const user = userEvent.setup();
    let sent = 0;
    render(<RegistrationForm schema={studentRegistrationSchema} onSent={() => sent++} />);
    const registration = buildStudentRegistration({ classCode: await classCodeOf() });
    await fill(user, filled(registration));

    const form = screen.getByRole('form', { name: 'Register' });
    fireEvent.submit(form);
    fireEvent.submit(form);
    expect(await screen.findByRole('button', { name: 'Registering…' })).toBeDisabled();
    await screen.findByRole('button', { name: 'Register' });
    expect(sent).toBe(1);
    // The one registration went through: the address is taken now, and no field is marked.
    expect(screen.queryByRole('textbox', { description: /./ })).not.toBeInTheDocument();
    const again = await call(registerStudent, { body: registration }).catch((error: Error) => error.message);
    expect(again).toMatch(/already/i);
  });

  it('takes away only its own failure toast when submitted again', async () => {
    const user = userEvent.setup();
    render(<Toaster />);
    act(() => {
      toast.remove(); // the earlier tests' toasts
      toast.success('Quiz saved'); // another part of the app's
    });
    render(<RegistrationForm schema={studentRegistrationSchema} onSent={() => {}} />);

    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(shown()).toEqual(['Name is required', 'Quiz saved']));
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(shown()).toEqual(['Account username is required', 'Quiz saved']));
    act(() => toast.remove());
  });

  it('words its problems and its toast again when the reader switches language (issue 32 point 4)', async () => {
    const { messages } = (await import('../../locales/es/messages.po')) as { messages: Messages };
    const user = userEvent.setup();
    act(() => toast.remove());
    render(
      <I18nProvider i18n={i18n}>
        <Toaster />
        <RegistrationForm schema={studentRegistrationSchema} onSent={() => {}} />
      </I18nProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Register' }));
    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(name).toHaveAccessibleDescription('Name is required'));
    await waitFor(() => expect(shown()).toEqual(['Name is required']));

    act(() => i18n.loadAndActivate({ locale: 'es', messages }));
    expect(name).toHaveAccessibleDescription('El campo «Nombre» es obligatorio');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('El campo «Correo electrónico» es obligatorio');
    expect(shown()).toEqual(['El campo «Nombre» es obligatorio']);
    act(() => toast.remove());
  });
});

/** The toasts on screen, newest first, as a person reads them. */
const shown = () =>
  Array.from(document.querySelectorAll('.toast:not([aria-hidden])'), (element) => element.textContent);
