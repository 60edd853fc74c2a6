import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages as spanish } from '../../locales/es/messages.po';
import { loader } from './teacher-register-page.tsx';

// A failure that is not the API's Error (a network stack throwing something else) still reads in the locale.
// eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the case under test: a reason that is no Error
vi.mock('../../lib/api.ts', () => ({ call: () => Promise.reject('offline') }));

afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('the invitation check (issue 32)', () => {
  it('words a failure it cannot name in the active language', async () => {
    i18n.loadAndActivate({ locale: 'es', messages: spanish });
    const request = new Request('http://localhost/auth/teacher/register?invitation=abc');
    const result = await loader({ request, params: {}, context: {} } as Parameters<typeof loader>[0]);
    expect(result).toEqual({ invitation: 'abc', failure: 'No se pudo comprobar la invitación.' });
  });
});
