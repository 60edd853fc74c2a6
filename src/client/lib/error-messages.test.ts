import { i18n, type Messages } from '@lingui/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FieldError } from '#shared/api';
import { changePassword } from '#shared/contract/accounts';
import { addClassStudent } from '#shared/contract/classes';
import { getQuiz } from '#shared/contract/quizzes';
import { starResource, uploadResource } from '#shared/contract/resources';
import { logInStudent, logInTeacher, registerStudent, registerTeacher } from '#shared/contract/sign-in';
import { getTaskList } from '#shared/contract/tasks';
import { ERROR_CODES, type ErrorCode } from '#shared/error-codes';
import { useFetchStandIn } from '../testing/fetch-stand-in.ts';
import { ApiError, call } from './api.ts';
import { cannotReachServer, FAILURE_TEXTS, failureText, type FailureCode } from './error-messages.ts';
import { waitText } from './wait-text.ts';

/** The texts are worded in the active locale: English, the code's own, unless a test loads a catalog. */
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

/** A locale's real catalog, compiled from its PO file as the build compiles it (@lingui/vite-plugin). */
async function activate(locale: 'es' | 'ar') {
  const { messages } = (await import(`../locales/${locale}/messages.po`)) as { messages: Messages };
  i18n.loadAndActivate({ locale, messages });
}

describe('the client’s failure texts', () => {
  it('has a text for every code the server may answer, and for the client’s own', () => {
    const codes = [...(Object.keys(ERROR_CODES) as ErrorCode[]), 'UNREACHABLE', 'UNEXPECTED_ANSWER'] as const;
    expect(Object.keys(FAILURE_TEXTS).sort()).toEqual([...codes].sort());
    for (const code of codes) expect(failureText(code, { status: 400 }).trim(), code).not.toBe('');
  });

  // The texts the screens' tests pin (tests/e2e, the component tests) and SPEC §8's.
  it.each([
    ['WRONG_CREDENTIALS', { endpoint: logInTeacher }, 'Email or password is incorrect'],
    ['WRONG_CREDENTIALS', { endpoint: logInStudent }, 'Username or password is incorrect'],
    ['WRONG_CURRENT_PASSWORD', { endpoint: changePassword.teacher }, 'Your current password is not correct'],
    ['EMAIL_TAKEN', { endpoint: registerTeacher }, 'A teacher with this email already exists'],
    ['EMAIL_TAKEN', { endpoint: registerStudent }, 'A student with this email already exists'],
    ['EMAIL_TAKEN', { endpoint: addClassStudent }, 'A student with this email already exists'],
    ['ROLL_NUMBER_TAKEN', { endpoint: addClassStudent }, 'This account username is already taken'],
    ['NOT_FOUND', { endpoint: getQuiz }, 'This quiz does not exist'],
    ['NOT_FOUND', { endpoint: starResource }, 'This resource no longer exists'],
    ['PAYLOAD_TOO_LARGE', { endpoint: uploadResource }, 'The file is too large to upload.'],
    ['PAYLOAD_TOO_LARGE', { endpoint: getTaskList }, 'The request is too large to send.'],
    ['UNREACHABLE', {}, 'Cannot reach the server. Check your connection and try again.'],
    [
      'VALIDATION_FAILED',
      { endpoint: uploadResource, fieldErrors: [{ field: 'file', code: 'FILE_MISSING', message: 'Choose one!' }] },
      'Please select a file.',
    ],
  ] as const)('%s says exactly its text (%#)', (code, facts, text) => {
    expect(failureText(code, facts)).toBe(text);
  });

  it('says the wait of Retry-After, and the reference of the server’s log line', () => {
    expect(failureText('SERVER_BUSY', { retryAfterSeconds: 30 })).toBe(
      'The server is busy with other large requests. Try again in 30 seconds.',
    );
    expect(failureText('UNAVAILABLE', { retryAfterSeconds: 240 })).toMatch(/Try again in 4 minutes\.$/);
    expect(failureText('THROTTLED', { retryAfterSeconds: 61 })).toBe(
      'Too many requests at once. Try again in 2 minutes.',
    );
    expect(
      failureText('INTERNAL_ERROR', {
        serverMessage: 'Something went wrong on our side. Please try again. (Reference: req-3f)',
      }),
    ).toBe('Something went wrong on our side. Please try again. (Reference: req-3f)');
    // The x-request-id every answer carries names it too, whatever the message says.
    expect(failureText('INTERNAL_ERROR', { requestId: 'req-9a', serverMessage: 'boom' })).toBe(
      'Something went wrong on our side. Please try again. (Reference: req-9a)',
    );
    expect(failureText('INTERNAL_ERROR', { serverMessage: 'boom' })).toBe(
      'Something went wrong on our side. Please try again.',
    );
  });
});

describe('the failure texts in the reader’s language (issue 32)', () => {
  it('Spanish: the texts, the waits as plurals, a field’s problem with its label', async () => {
    await activate('es');
    expect(failureText('SERVER_BUSY', { retryAfterSeconds: 30 })).toBe(
      'El servidor está ocupado con otras solicitudes grandes. Vuelve a intentarlo en 30 segundos.',
    );
    expect(failureText('THROTTLED', { throttleLimit: 'sign-in-device', retryAfterSeconds: 61 })).toBe(
      'Demasiados intentos de inicio de sesión en este dispositivo. Vuelve a intentarlo en 2 minutos.',
    );
    expect(failureText('THROTTLED', {})).toBe('Demasiadas solicitudes a la vez. Vuelve a intentarlo en un momento.');
    expect(failureText('WRONG_CREDENTIALS', { endpoint: logInStudent })).toBe(
      'El nombre de usuario o la contraseña no son correctos',
    );
    expect(failureText('INTERNAL_ERROR', { requestId: 'req-9a' })).toBe(
      'Algo salió mal por nuestra parte. Vuelve a intentarlo. (Referencia: req-9a)',
    );
    expect(
      failureText('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'email', code: 'REQUIRED', message: 'Email is required' }],
      }),
    ).toBe('El campo «Correo electrónico» es obligatorio');
    expect([1, 40, 60, 61, 90 * 60, 91 * 60].map(waitText)).toEqual([
      'en 1 segundo',
      'en 40 segundos',
      'en 1 minuto',
      'en 2 minutos',
      'en 90 minutos',
      'en 2 horas',
    ]);
  });

  it('Arabic: the waits in their six plural forms', async () => {
    await activate('ar');
    // one, two, few (3) and many (11) minutes; other (100) hours: a wait past 90 minutes is in hours.
    expect([1, 2, 3, 11].map((minutes) => waitText(minutes * 60))).toEqual([
      'بعد دقيقة واحدة',
      'بعد دقيقتين',
      'بعد 3 دقائق',
      'بعد 11 دقيقة',
    ]);
    expect(waitText(100 * 3600)).toBe('بعد 100 ساعة');
  });

  it('follows the locale active when asked, not the one active when the module loaded', async () => {
    expect(failureText('QUIZ_ARCHIVED')).toBe('This quiz is archived');
    await activate('es');
    expect(failureText('QUIZ_ARCHIVED')).toBe('Este cuestionario está archivado');
  });
});

describe('ApiError: what a screen shows comes from the client', () => {
  const fetchMock = useFetchStandIn();

  const refusal = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers });
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable(),
      (error: unknown) => error,
    );
  /** The failure of a login the stand-in answers with `body`. */
  const failedLogin = async (status: number, body: unknown) => {
    fetchMock.mockResolvedValue(refusal(status, body));
    return (await failureOf(
      call(logInStudent, { body: { rollNumber: 'ada', password: 'secret-password' } }),
    )) as ApiError;
  };

  it.each([
    ['WRONG_CREDENTIALS', 401],
    ['ROLL_NUMBER_TAKEN', 409],
    ['QUIZ_ALREADY_SUBMITTED', 409],
    ['UNAVAILABLE', 503],
  ] as const satisfies readonly (readonly [FailureCode, number])[])(
    'a %s whose server message changed still shows the client’s text',
    async (code, status) => {
      const serverMessage = 'A wording the server changed, which no screen may show';
      const error = await failedLogin(status, { success: false, code, message: serverMessage, data: null });
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code, serverMessage, message: failureText(code, { endpoint: logInStudent }) });
      expect(error.message).not.toContain('server changed');
    },
  );

  it('words field problems from their codes, never with the server’s sentences', async () => {
    const refused = (status: number, code: FailureCode, problem: FieldError) =>
      // The server's sentence names the field first, as its invalidInput() does.
      failedLogin(status, {
        success: false,
        code,
        message: `${problem.field}: ${problem.message}`,
        data: null,
        errors: [problem],
      });
    const taken = await refused(409, 'ROLL_NUMBER_TAKEN', { field: 'rollNumber', code: 'TAKEN', message: 'taken!' });
    expect(taken.fieldErrors).toEqual([
      { field: 'rollNumber', code: 'TAKEN', message: 'This account username is already taken' },
    ]);

    const missing = { field: 'name', code: 'REQUIRED', message: 'Xyzzy plugh' } as const;
    const invalid = await refused(400, 'VALIDATION_FAILED', missing);
    expect(invalid.message).toBe('Name is required');
    expect(invalid.fieldErrors).toEqual([{ ...missing, message: 'Name is required' }]);

    const long = { field: 'email', code: 'TOO_LONG', params: { maximum: 254 }, message: 'Qwerty' } as const;
    expect((await refused(400, 'VALIDATION_FAILED', long)).message).toBe('Email must be at most 254 characters');
  });

  it('names a fault by the request id its answer carries, not by the server’s sentence', async () => {
    fetchMock.mockResolvedValue(
      refusal(
        500,
        { success: false, code: 'INTERNAL_ERROR', message: 'Kaboom', data: null },
        { 'x-request-id': 'r-77' },
      ),
    );
    expect(await failureOf(call(getTaskList))).toMatchObject({
      code: 'INTERNAL_ERROR',
      serverMessage: 'Kaboom',
      message: 'Something went wrong on our side. Please try again. (Reference: r-77)',
    });
  });

  it('words the failures that bring no envelope: no connection, a proxy’s 502 page, a proxy’s 429', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await failureOf(call(getTaskList))).toMatchObject({ code: 'UNREACHABLE', message: cannotReachServer() });

    fetchMock.mockResolvedValue(refusal(502, '<html><h1>502 Bad Gateway</h1></html>'));
    expect(await failureOf(call(getTaskList))).toMatchObject({
      code: 'UNEXPECTED_ANSWER',
      status: 502,
      message: 'The server is not answering just now (HTTP 502). Try again in a moment.',
    });

    fetchMock.mockResolvedValue(refusal(429, '<html>Too Many Requests</html>', { 'retry-after': '20' }));
    expect(await failureOf(call(getTaskList))).toMatchObject({
      code: 'THROTTLED',
      retryAfterSeconds: 20,
      message: 'Too many requests at once. Try again in 20 seconds.',
    });
  });
});
