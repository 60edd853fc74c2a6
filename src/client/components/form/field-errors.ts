import type { FieldError } from '#shared/api';
import type { z } from 'zod';

/** A form's problems: one message per field (or slot), keyed by the control's name or data-field. */
export type FormErrors = Record<string, string>;

/** The form's name for a body path, when they differ (`class` -> `className`). */
export type FieldNameOf = (path: string) => string;

/**
 * The one mapping from problems to fields: the server's errors[] and the schema's own issues
 * (named the same way) become the first message per form field.
 */
export function formErrorsOf(problems: readonly FieldError[], fieldOf: FieldNameOf = (path) => path): FormErrors {
  const errors: FormErrors = {};
  for (const problem of problems) errors[fieldOf(problem.field)] ??= problem.message;
  return errors;
}

/** The schema's verdict on a body: its problems by field, none when the body is valid. */
export function checkBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  fieldOf?: FieldNameOf,
): { isValid: true; data: z.output<S> } | { isValid: false; errors: FormErrors } {
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { isValid: true, data: parsed.data }
    : {
        isValid: false,
        // Named by their dotted paths, as the server names its field errors (its unknown-key case
        // is left out: a form sends only its own fields, and the bytes count on the auth pages).
        errors: formErrorsOf(
          parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message })),
          fieldOf,
        ),
      };
}
