import { t } from '@lingui/core/macro';
import { LinguiContext } from '@lingui/react';
import { createElement, useContext, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import type { z } from 'zod/mini';
import { ApiError, isInputFailure } from '../../lib/api.ts';
import {
  checkBody,
  formErrorsOf,
  wordErrors,
  type FieldLabels,
  type FieldNameOf,
  type FormErrors,
} from './field-errors.ts';

/** A toast's text worded as it shows, again when the reader switches language. */
function Worded({ word }: { word: () => string }) {
  useContext(LinguiContext);
  return word();
}
const worded = (word: () => string) => createElement(Worded, { word });

export type EndpointFormOptions<S extends z.ZodMiniType> = {
  /** The endpoint's body schema (`endpoint.body`), or one derived from it for the screen. */
  schema: S;
  /** The body to check and send, read as the form is submitted; by default its named controls. */
  toBody?(form: HTMLFormElement): z.input<S>;
  /** The form's name for a body path, when they differ; the server's field errors go through it too. */
  fieldOf?: FieldNameOf;
  /** The form's labels of its fields where they differ from the usual ones (field-error-texts.ts): problems say them. */
  labels?: FieldLabels;
  /** Amends the schema's problems before they show: checks it cannot make (a file), clearer words (functions word them as they show). */
  refineErrors?(errors: FormErrors): FormErrors;
  /**
   * Sends the checked body: `data` as the schema outputs it, `body` as it was read (what to send
   * when the schema transforms). A rejection is the toast (SPEC §8); its field problems show at
   * their fields.
   */
  onSubmit(data: z.output<S>, sent: { body: z.input<S>; form: HTMLFormElement }): Promise<void>;
  /** Field problems a failure carries other than the server's errors[] (a refused file). */
  errorsOfFailure?(error: unknown): FormErrors | null;
};

/** What a control needs from the form: its name and its problem (for TextField and the other Field controls). */
export type FormFieldProps = { name: string; error: string | undefined };

/** The key of a control in the form's problems: its data-field, else its name. */
const fieldKeyOf = (element: Element) =>
  (element instanceof HTMLElement && element.dataset.field) || element.getAttribute('name') || '';

/**
 * The client's one form layer (decision 029): the endpoint's zod schema checks the body before
 * it is sent, problems (the schema's or the server's field errors) show at their fields, the
 * first invalid field in the form takes the focus, and a second submit while one is in flight
 * is refused. Spread `formProps` on the <form>, `field(name)` on each control.
 */
export function useEndpointForm<S extends z.ZodMiniType>(options: EndpointFormOptions<S>) {
  const [problems, setErrorsState] = useState<FormErrors>({});
  // Worded at each render: a switch of language re-renders the form (its I18nProvider) and its problems follow.
  useContext(LinguiContext);
  const errors = wordErrors(problems, options.labels);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const inFlightRef = useRef(false);
  /** This form's failure toast: the next submit takes it away, and only it. */
  const failureToastId = `form-failure:${useId()}`;
  // The focus moves once these problems are on screen (not at a render of older ones in between);
  // a client-side refusal is also said as a toast.
  const pendingFocusRef = useRef<{ shown: FormErrors; isToasted: boolean } | null>(null);
  // The form's labels as it shows now, for its toast worded later.
  const labelsRef = useRef(options.labels);
  labelsRef.current = options.labels;

  useEffect(() => {
    const pending = pendingFocusRef.current;
    if (pending?.shown !== problems) return;
    pendingFocusRef.current = null;
    const controls = formRef.current?.querySelectorAll<HTMLElement>('[data-field], [name]') ?? [];
    const first = Array.from(controls).find((element) => errors[fieldKeyOf(element)]);
    first?.focus();
    if (pending.isToasted) {
      const key = first ? fieldKeyOf(first) : Object.keys(problems)[0];
      toast.error(
        worded(() => (key === undefined ? t`Please check the form` : wordErrors(problems, labelsRef.current)[key]!)),
        { id: failureToastId },
      );
    }
  });

  /** Shows these problems (replacing the others) and moves the focus to the first in the form. */
  const showErrors = (found: FormErrors, isToasted = false) => {
    setErrorsState(found);
    if (Object.keys(found).length > 0) pendingFocusRef.current = { shown: found, isToasted };
  };

  /** Forgets the problems of the fields that match (their values changed). */
  const clearErrors = (matches: (field: string) => boolean) =>
    setErrorsState((current) =>
      Object.keys(current).some(matches)
        ? Object.fromEntries(Object.entries(current).filter(([field]) => !matches(field)))
        : current,
    );

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlightRef.current) return;
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter ?? document.activeElement;
    const { schema, toBody, fieldOf, refineErrors, onSubmit, errorsOfFailure } = options;
    // This form's earlier failure must not linger next to the next outcome; other toasts stay.
    toast.dismiss(failureToastId);
    const body = toBody ? toBody(form) : (Object.fromEntries(new FormData(form).entries()) as z.input<S>);
    const checked = checkBody(schema, body, fieldOf);
    const schemaErrors = checked.isValid ? {} : checked.errors;
    const found = refineErrors ? refineErrors(schemaErrors) : schemaErrors;
    if (!checked.isValid || Object.keys(found).length > 0) {
      showErrors(found, true);
      return;
    }
    setErrorsState({});
    inFlightRef.current = true;
    setIsSubmitting(true);
    try {
      await onSubmit(checked.data, { body, form });
    } catch (error) {
      toast.error(
        error instanceof ApiError
          ? worded(() => error.wording())
          : error instanceof Error
            ? error.message
            : worded(() => t`Something went wrong`),
        { id: failureToastId },
      );
      // A rule's refusal keeps its own words at the field; an input's problems say the form's labels.
      const fieldErrors =
        error instanceof ApiError
          ? formErrorsOf(
              error.fieldErrors,
              fieldOf,
              isInputFailure(error.code) ? {} : { isLabelled: false, wordingOf: () => error.wording() },
            )
          : {};
      showErrors({ ...fieldErrors, ...errorsOfFailure?.(error) });
    } finally {
      inFlightRef.current = false;
      setIsSubmitting(false);
      // The submit button is disabled while the request runs, which drops the focus to <body>;
      // unless a field takes it, give it back once the button is enabled again.
      setTimeout(() => {
        const isFocusLost = document.activeElement === document.body || document.activeElement === null;
        if (isFocusLost && !pendingFocusRef.current && submitter instanceof HTMLElement && submitter.isConnected) {
          submitter.focus();
        }
      });
    }
  };

  return {
    errors,
    isSubmitting,
    showErrors,
    /** Changes the problems without moving the focus (a check as a value is chosen). */
    setErrors: setErrorsState,
    clearErrors,
    field: (name: string): FormFieldProps => ({ name, error: errors[name] }),
    formProps: {
      ref: formRef,
      noValidate: true,
      onSubmit: (event: FormEvent<HTMLFormElement>) => void handleSubmit(event),
      // Capture: a field's problem goes as its value changes, before the field's own handler may say a new one.
      onChangeCapture: (event: FormEvent<HTMLFormElement>) => {
        const key = fieldKeyOf(event.target as Element);
        if (key) clearErrors((field) => field === key);
      },
    },
  };
}

export type EndpointForm = ReturnType<typeof useEndpointForm>;
