import { i18n, type Messages } from '@lingui/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FieldError } from '#shared/api';
import type { FieldErrorCode } from '#shared/field-error-codes';
import { formErrorsOf, wordErrors } from '../components/form/field-errors.ts';
import { fieldErrorText } from './field-error-texts.ts';

/** The texts are worded in the active locale: English, the code's own, unless a test loads a catalog. */
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

/** A problem as the server sends it, its sentence gibberish: the client's words must not depend on it. */
const problem = (field: string, code: FieldErrorCode, params?: FieldError['params']): FieldError => ({
  field,
  code,
  ...(params ? { params } : {}),
  message: 'Blorp fizzle wump',
});

describe('the client words field problems from their codes (issue 32 point 3)', () => {
  it.each([
    [problem('email', 'REQUIRED'), 'Email is required'],
    [problem('password', 'TOO_SHORT', { minimum: 8 }), 'Password must be at least 8 characters'],
    [problem('parentName', 'TOO_LONG', { maximum: 100 }), 'Parent name must be at most 100 characters'],
    [problem('parentEmail', 'INVALID_EMAIL'), 'Parent email must be a valid email address'],
    [problem('name', 'FORBIDDEN_CHARACTERS'), 'Name contains characters that are not allowed'],
    [problem('newPassword', 'ONLY_SPACES'), 'New password must not be only spaces'],
    [problem('quiz.questions.2.question_text', 'REQUIRED'), 'Question text is required'],
    [problem('rows.4.email', 'DUPLICATE_IN_FILE', { firstRow: 2 }), 'Email is also on row 2 of the file'],
    [problem('confirmPassword', 'PASSWORDS_DIFFER'), 'The two new passwords do not match'],
    [problem('classCode', 'CLASS_CODE_FORM'), 'A class code is 8 letters and digits, like ABCD-EFGH'],
    [problem('file', 'FILE_MISSING', { kind: 'image' }), 'Choose an image.'],
    [problem('file', 'FILE_MISSING'), 'Please select a file.'],
    [problem('deadline', 'DEADLINE_PAST'), 'Deadline must be in the future'],
    [problem('publishAt', 'PUBLISH_AFTER_DUE'), 'The publish time must come before the due time'],
    [
      problem('dueAt', 'DATE_OUT_OF_RANGE', { minimum: 2000, maximum: 2100 }),
      'Choose a date between the years 2000 and 2100',
    ],
    [problem('answers.q1', 'NOT_ANSWERABLE'), 'A description takes no answer'],
    [problem('classIds', 'NO_CLASS_CHOSEN'), 'Choose at least one class'],
    [
      problem('instructions', 'SCRIPT_IN_TEXT', { tag: '<script>' }),
      'Scripts, frames and event handlers are not allowed here. To show code, put it in a code block.',
    ],
    [problem('name', 'TOO_SHORT', { minimum: 1 }), 'Name must be at least 1 character'],
    [problem('rows.4.email', 'DUPLICATE_IN_FILE', { firstRow: 1200 }), 'Email is also on row 1,200 of the file'],
    [
      problem('csv', 'UNCLOSED_QUOTE', { line: 2 }),
      'A quoted cell that starts on line 2 is never closed: check the quotes (") there.',
    ],
    [
      problem('csv', 'TOO_MANY_ROWS', { rows: 2001, max: 2000 }),
      'The file has 2,001 students: at most 2,000 can be imported at once. Split it into smaller files.',
    ],
    [problem('quiz.questions.0.answer', 'CORRECT_ANSWER_MISSING'), 'Choose the correct answer'],
    [
      problem('quiz.questions.0.pairs', 'TOO_FEW_MATCHES', { minimum: 2 }),
      'Give at least two different matches to choose from',
    ],
    [
      problem('url', 'VIDEO_LINK_PROVIDER', { providers: ['YouTube', 'Vimeo'] }),
      'Link must be an https address of YouTube, Vimeo',
    ],
  ])('%o reads “%s”', (given, text) => {
    expect(fieldErrorText(given)).toBe(text);
  });

  it('says a field by the form’s own label for it', () => {
    expect(fieldErrorText(problem('name', 'REQUIRED'), 'Full name')).toBe('Full name is required');
    expect(wordErrors(formErrorsOf([problem('name', 'REQUIRED')]), { name: 'Class' })).toEqual({
      name: 'Class is required',
    });
  });

  it('words them in Spanish with the es catalog, the field’s label in Spanish too', async () => {
    const { messages } = (await import('../locales/es/messages.po')) as { messages: Messages };
    i18n.loadAndActivate({ locale: 'es', messages });
    expect(fieldErrorText(problem('email', 'REQUIRED'))).toBe('El campo «Correo electrónico» es obligatorio');
    expect(fieldErrorText(problem('password', 'TOO_SHORT', { minimum: 8 }))).toBe(
      'El campo «Contraseña» debe tener al menos 8 caracteres',
    );
    expect(fieldErrorText(problem('rows.4.email', 'DUPLICATE_IN_FILE', { firstRow: 1200 }))).toBe(
      'El valor de «Correo electrónico» también está en la fila 1200 del archivo',
    );
    expect(fieldErrorText(problem('confirmPassword', 'PASSWORDS_DIFFER'))).toBe(
      'Las dos contraseñas nuevas no coinciden',
    );
    expect(fieldErrorText(problem('name', 'REQUIRED'), 'Nombre completo')).toBe(
      'El campo «Nombre completo» es obligatorio',
    );
  });

  it('gives an English reader the generic words too, never the server’s sentence: a check without a code, a bound of an unnamed field', () => {
    expect(fieldErrorText(problem('quiz.questions.0.options', 'INVALID'))).toBe('This value is not valid');
    expect(fieldErrorText(problem('weight', 'TOO_BIG', { maximum: 100 }))).toBe('The value must be at most 100');
    // A strict bound is not itself allowed: a partial answer earns more than 0 percent.
    expect(fieldErrorText(problem('weight', 'TOO_SMALL', { minimum: 0, inclusive: false }))).toBe(
      'The value must be more than 0',
    );
    expect(fieldErrorText(problem('weight', 'TOO_BIG', { maximum: 100, inclusive: false }))).toBe(
      'The value must be less than 100',
    );
  });

  it('says a question’s options, pairs and time in their own words, in every locale', async () => {
    expect(fieldErrorText(problem('quiz.questions.1.options', 'TOO_FEW', { minimum: 2 }))).toBe(
      'A question needs at least 2 options',
    );
    expect(fieldErrorText(problem('quiz.questions.1.options', 'NOT_UNIQUE'))).toBe('Options of a question must differ');
    expect(fieldErrorText(problem('maxTime', 'TOO_SMALL', { minimum: 1 }))).toBe(
      'Maximum time must be at least 1 minute',
    );
    const { messages: arabic } = (await import('../locales/ar/messages.po')) as { messages: Messages };
    i18n.loadAndActivate({ locale: 'ar', messages: arabic });
    expect(fieldErrorText(problem('quiz.questions.1.pairs', 'TOO_FEW', { minimum: 2 }))).toBe(
      'يحتاج سؤال المطابقة إلى زوجين على الأقل',
    );
  });

  it('names a field by its list where the name means different things', () => {
    expect(fieldErrorText(problem('tasks.3.text', 'TOO_LONG', { maximum: 200 }))).toBe(
      'Task text must be at most 200 characters',
    );
    expect(fieldErrorText(problem('quiz.questions.0.options.2.text', 'TOO_LONG', { maximum: 2000 }))).toBe(
      'Option must be at most 2,000 characters',
    );
  });

  it('says a field’s own words where they say more than its code’s', () => {
    expect(fieldErrorText(problem('classId', 'INVALID_FORMAT', { format: 'uuid' }))).toBe('Choose one of your classes');
    expect(fieldErrorText(problem('quiz.questions.2.correct', 'WRONG_TYPE', { expected: 'boolean' }))).toBe(
      'Choose whether the statement is true or false',
    );
    expect(fieldErrorText(problem('quiz.questions.2.tolerance', 'TOO_SMALL', { minimum: 0 }))).toBe(
      'Tolerance cannot be negative',
    );
  });

  it('gives those generic words in the reader’s language, never the English', async () => {
    const { messages } = (await import('../locales/es/messages.po')) as { messages: Messages };
    i18n.loadAndActivate({ locale: 'es', messages });
    expect(fieldErrorText(problem('quiz.questions.0.options', 'INVALID'))).toBe('Este valor no es válido');
    expect(fieldErrorText(problem('weight', 'TOO_BIG', { maximum: 100 }))).toBe('El valor debe ser como máximo 100');
    expect(fieldErrorText(problem('attachments', 'TOO_FEW', { minimum: 1 }))).toBe('Indica al menos 1 elemento');
    // The shared rules' own codes (assignments, answers) are worded, not left to the generic words.
    expect(fieldErrorText(problem('publishAt', 'PUBLISH_AFTER_DUE'))).toBe(
      'La fecha de publicación debe ser anterior a la fecha límite',
    );
    expect(fieldErrorText(problem('answers.q1', 'NOT_ANSWERABLE'))).toBe('Una descripción no lleva respuesta');
    expect(fieldErrorText(problem('classIds', 'NO_CLASS_CHOSEN'))).toBe('Elige al menos una clase');
    const { messages: arabic } = (await import('../locales/ar/messages.po')) as { messages: Messages };
    i18n.loadAndActivate({ locale: 'ar', messages: arabic });
    expect(fieldErrorText(problem('attachments', 'TOO_FEW', { minimum: 2 }))).toBe('عنصران على الأقل');
    expect(fieldErrorText(problem('classIds', 'NO_CLASS_CHOSEN'))).toBe('اختر صفًا واحدًا على الأقل');
  });
});
