import { fieldErrorsOf } from '#shared/api';
import type { z } from 'zod/mini';
import { fieldErrorText, isSaidByName, type FieldProblem } from '../../lib/field-error-texts.ts';

/**
 * A field's problem: its words, or what words them in the locale active when it shows (from its
 * code), so a problem shown before the reader switches language reads in the new one (issue 32
 * point 4). `labels` are the form's labels at that time.
 */
export type FormError = string | ((labels: FieldLabels) => string);

/** A form's problems: one per field (or slot), keyed by the control's name or data-field. */
export type FormErrors = Record<string, FormError>;

/** A form's problems as a person reads them now. */
export type WordedErrors = Record<string, string>;

/** The problems worded in the active locale, with the form's labels as they are now. */
export const wordErrors = (errors: FormErrors, labels: FieldLabels = {}): WordedErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([key, error]) => [key, typeof error === 'function' ? error(labels) : error]),
  );

/** The form's name for a body path, when they differ (`class` -> `className`). */
export type FieldNameOf = (path: string) => string;

/** A form's own names of its fields (their labels), by the form's field name: the words of a problem say them. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The one mapping from problems to fields: the server's errors[] and the schema's own issues
 * (named the same way) become the first message per form field. A problem said by the field's
 * name ("Email is required") is worded with the form's label for it when the form has one. Each
 * is worded when it shows (`wordErrors`), from its code, or by `wordingOf` (a rule's refusal).
 */
export function formErrorsOf(
  problems: readonly FieldProblem[],
  fieldOf: FieldNameOf = (path) => path,
  {
    isLabelled = true,
    wordingOf = fieldErrorText,
  }: { isLabelled?: boolean; wordingOf?(problem: FieldProblem): string } = {},
): FormErrors {
  const errors: FormErrors = {};
  for (const problem of problems) {
    const key = fieldOf(problem.field);
    errors[key] ??= (labels) => {
      const label = isLabelled ? labels[key] : undefined;
      return label && isSaidByName(problem.code) ? fieldErrorText(problem, label) : wordingOf(problem);
    };
  }
  return errors;
}

/** The schema's verdict on a body: its problems by field, worded from their codes; none when the body is valid. */
export function checkBody<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  fieldOf?: FieldNameOf,
): { isValid: true; data: z.output<S> } | { isValid: false; errors: FormErrors } {
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { isValid: true, data: parsed.data }
    : // Named by their dotted paths and coded as the server names and codes its field errors.
      { isValid: false, errors: formErrorsOf(fieldErrorsOf(parsed.error.issues), fieldOf) };
}
