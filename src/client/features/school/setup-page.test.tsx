import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_SETUP_CODE } from '../../../server/testing/factories.ts';
import { openApp } from '../../testing/open-app.tsx';

/**
 * The first run's school step asks for the school's language (issue 32 point 4). The component
 * tests' server has its school set up long ago, so its "not set up yet" answers are given here;
 * the set-up itself goes to the real server, which refuses it (409): what matters is what the
 * form sent. That the server keeps the language it is sent: src/server/features/accounts/languages.test.ts.
 */

const NOT_SET_UP = { isSetUp: false, name: null, hasDemo: false, defaultLocale: 'en' };

/** Answers the first run's questions as a fresh server would; records the set-up's body and passes it on. */
function asAFreshServer() {
  const realFetch = globalThis.fetch;
  const setups: Record<string, unknown>[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.origin);
    const answer = (data: unknown) =>
      new Response(JSON.stringify({ success: true, data }), { headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/api/school' && (init?.method ?? 'GET') === 'GET') return answer(NOT_SET_UP);
    if (url.pathname === '/api/school/setup-code') return answer(NOT_SET_UP);
    if (url.pathname === '/api/school/setup') setups.push(JSON.parse(init?.body as string) as Record<string, unknown>);
    return realFetch(input, init);
  });
  return setups;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.cookie = 'studyhall_locale=; Max-Age=0; Path=/';
});

async function toTheSchoolStep() {
  const opened = await openApp('/setup');
  await opened.user.type(await screen.findByRole('textbox', { name: /^(Set-up code|رمز الإعداد)/ }), TEST_SETUP_CODE);
  await opened.user.click(screen.getByRole('button', { name: /^(Continue|متابعة)$/ }));
  return opened;
}

describe('the first run asks for the school’s language', () => {
  it('offers every language, starts with the page’s, and sends the one chosen', async () => {
    const setups = asAFreshServer();
    const { user } = await toTheSchoolStep();
    const language = await screen.findByRole('combobox', { name: /^The school's language/ });
    expect(language).toHaveValue('en');
    expect([...(language as HTMLSelectElement).options].map((option) => option.value)).toEqual(['en', 'es', 'ar']);
    await user.selectOptions(language, 'Español');
    await user.type(screen.getByRole('textbox', { name: /^School name/ }), 'Colegio Cervantes');
    await user.type(screen.getByRole('textbox', { name: /^Full name/ }), 'Ana Directora');
    await user.type(screen.getByRole('textbox', { name: /^Subject/ }), 'Historia');
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'ana.directora@school.test');
    await user.type(screen.getByLabelText(/^Password/), 'a-long-password-1');
    await user.click(screen.getByRole('button', { name: 'Set up the school' }));
    await waitFor(() => expect(setups).toHaveLength(1));
    expect(setups[0]).toMatchObject({
      setupCode: TEST_SETUP_CODE,
      schoolName: 'Colegio Cervantes',
      defaultLocale: 'es',
    });
  });

  it('starts with Arabic when the page is read in Arabic', async () => {
    asAFreshServer();
    document.cookie = 'studyhall_locale=ar; Path=/';
    await toTheSchoolStep();
    expect(await screen.findByRole('combobox', { name: /^لغة المدرسة/ })).toHaveValue('ar');
  });
});
