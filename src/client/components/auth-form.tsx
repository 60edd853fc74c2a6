import { useState, type ReactNode } from 'react';
import type { z } from 'zod/mini';
import { Button } from './ui/button.tsx';
import { PageTitle } from './ui/page-title.tsx';
import { codeInputProps, TextField } from './ui/field.tsx';
import { useEndpointForm, type FormFieldProps } from './form/use-endpoint-form.ts';
import { withLoading } from '../stores/app-store.ts';

export type AuthField = {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete: string;
  hint?: string;
  /** Id of a <datalist> of suggestions. */
  list?: string;
  /** The value the field starts with (a code from the link). */
  defaultValue?: string | undefined;
  /** A code or a username: typed left to right in every language (codeInputProps). */
  isCode?: boolean;
};

type AccountFormProps<Schema extends z.ZodMiniType<Record<string, unknown>>> = {
  schema: Schema;
  fields: AuthField[];
  /** Controls of the form's own before the fields (a class picker), given their name and problem. */
  leadingControls?(field: (name: string) => FormFieldProps): ReactNode;
  /** Sent with the fields as hidden inputs. */
  hiddenValues?: Record<string, string> | undefined;
  submitLabel: string;
  /** Sends the valid values; a failure's message becomes a toast and marks the field the server named. */
  onSubmit(values: z.infer<Schema>): Promise<void>;
  /** Called as every submission starts, valid or not. */
  onSubmitStart?(): void;
  /** Layout of the <form>. */
  className: string;
  submitClassName: string;
  /** Shown beside the submit button (e.g. a Cancel link). */
  actions?: ReactNode;
  /** Empties the fields after a successful submission (passwords must not stay on screen). */
  isResetOnSuccess?: boolean;
  /**
   * The signed-in account's name, for a form of passwords only: a hidden username field tells
   * password managers which saved entry the new password belongs to.
   */
  accountName?: string;
};

type AuthFormProps<Schema extends z.ZodMiniType<Record<string, unknown>>> = {
  title: string;
  intro?: ReactNode;
  schema: Schema;
  fields: AuthField[];
  submitLabel: string;
  /** Sends the valid values; a page that is not left at once says its own success in its own words. */
  onSubmit(values: z.infer<Schema>): Promise<void>;
  notice?: string | undefined;
  /** Values sent with the fields but not typed in (an invitation code from the link). */
  hiddenValues?: Record<string, string> | undefined;
  /** Controls of the form's own before the text fields (the set-up's language), given their name and problem. */
  leadingControls?(field: (name: string) => FormFieldProps): ReactNode;
  footer: ReactNode;
};

/**
 * The four auth forms (SPEC §5): the shared zod schema validates before
 * sending; problems appear next to their field, server failures as a toast
 * (SPEC §8) and next to the field the server named.
 */
export function AuthForm<Schema extends z.ZodMiniType<Record<string, unknown>>>(props: AuthFormProps<Schema>) {
  const [isNoticeVisible, setIsNoticeVisible] = useState(true);
  return (
    <AuthPanel title={props.title} intro={props.intro}>
      {/* The tab says the form too (the set-up, login and register pages). */}
      <PageTitle>{props.title}</PageTitle>
      {props.notice && isNoticeVisible ? (
        <p
          role="status"
          className="mt-4 rounded-lg border border-teal-600/40 bg-teal-50 px-3 py-2 text-sm text-teal-900"
        >
          {props.notice}
        </p>
      ) : null}
      <AccountForm
        schema={props.schema}
        fields={props.fields}
        hiddenValues={props.hiddenValues}
        leadingControls={props.leadingControls}
        submitLabel={props.submitLabel}
        onSubmit={props.onSubmit}
        onSubmitStart={() => setIsNoticeVisible(false)}
        className="mt-6 flex flex-col gap-4"
        submitClassName="mt-2 w-full"
      />
      {props.footer ? <p className="mt-6 text-center text-sm text-muted">{props.footer}</p> : null}
    </AuthPanel>
  );
}

/** The card of the auth pages, with its title: a form, or a message in its place (a used invitation). */
export function AuthPanel({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:py-16">
      {/* The card's classes by hand, not cardVariants: its chunk (0.4 kB) would put the auth pages over their 160 kB. */}
      <div className="w-full max-w-md rounded-2xl border border-line bg-surface p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-fg">{title}</h1>
        {intro ? <p className="mt-1 text-sm text-muted">{intro}</p> : null}
        {children}
      </div>
    </main>
  );
}

/**
 * The fields and submit button of an account form, without a page around it
 * (the auth pages and the teacher's add-student share it): the shared zod schema
 * validates before sending, problems appear next to their field and as a toast.
 */
export function AccountForm<Schema extends z.ZodMiniType<Record<string, unknown>>>(props: AccountFormProps<Schema>) {
  const form = useEndpointForm({
    schema: props.schema,
    // Problems name a field as the form labels it ("Full name is required").
    labels: Object.fromEntries(props.fields.map((field) => [field.name, field.label])),
    onSubmit: async (values, { form: element }) => {
      await withLoading(() => props.onSubmit(values));
      if (props.isResetOnSuccess) element.reset();
    },
  });

  const submitButton = (
    <Button type="submit" disabled={form.isSubmitting} className={props.submitClassName}>
      {props.submitLabel}
    </Button>
  );
  return (
    <form
      {...form.formProps}
      onSubmit={(event) => {
        props.onSubmitStart?.();
        form.formProps.onSubmit(event);
      }}
      className={props.className}
    >
      {props.accountName !== undefined ? (
        <input type="text" name="username" autoComplete="username" value={props.accountName} readOnly hidden />
      ) : null}
      {Object.entries(props.hiddenValues ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {props.leadingControls?.(form.field)}
      {props.fields.map((field) => (
        <TextField
          key={field.name}
          {...form.field(field.name)}
          label={field.label}
          type={field.type ?? 'text'}
          autoComplete={field.autoComplete}
          hint={field.hint}
          list={field.list}
          defaultValue={field.defaultValue}
          {...(field.isCode && codeInputProps)}
          required
        />
      ))}
      {props.actions ? (
        // col-span-full: in a grid form the button row takes a whole row.
        <div className="col-span-full flex flex-wrap items-center gap-3">
          {submitButton}
          {props.actions}
        </div>
      ) : (
        submitButton
      )}
    </form>
  );
}
