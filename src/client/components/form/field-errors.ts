import { fieldErrorsOf } from '#shared/api';
import type { z } from 'zod';
import { fieldErrorText, isSaidByName, type FieldProblem } from '../../lib/field-error-texts.ts';

/** A form's problems: one message per field (or slot), keyed by the control's name or data-field. */
export type FormErrors = Record<string, string>;

/** The form's name for a body path, when they differ (`class` -> `className`). */
export type FieldNameOf = (path: string) => string;

/** A form's own names of its fields (their labels), by the form's field name: the words of a problem say them. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The one mapping from problems to fields: the server's errors[] and the schema's own issues
 * (named the same way) become the first message per form field. A problem said by the field's
 * name ("Email is required") is worded with the form's label for it when `labels` has one.
 */
export function formErrorsOf(
  problems: readonly FieldProblem[],
  fieldOf: FieldNameOf = (path) => path,
  labels: FieldLabels = {},
): FormErrors {
  const errors: FormErrors = {};
  for (const problem of problems) {
    const key = fieldOf(problem.field);
    const label = labels[key];
    errors[key] ??= label && isSaidByName(problem.code) ? fieldErrorText(problem, label) : problem.message;
  }
  return errors;
}

/** The schema's verdict on a body: its problems by field, worded from their codes; none when the body is valid. */
export function checkBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  fieldOf?: FieldNameOf,
  labels?: FieldLabels,
): { isValid: true; data: z.output<S> } | { isValid: false; errors: FormErrors } {
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { isValid: true, data: parsed.data }
    : {
        isValid: false,
        // Named by their dotted paths and coded as the server names and codes its field errors.
        errors: formErrorsOf(
          fieldErrorsOf(parsed.error.issues).map((problem) => ({ ...problem, message: fieldErrorText(problem) })),
          fieldOf,
          labels,
        ),
      };
}
