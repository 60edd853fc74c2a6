import { afterEach, describe, expect, it } from 'vitest';
import { LOCALE_COOKIE } from '#shared/locales';
import { chooseLocale } from './i18n.ts';
import { clearSession, saveSession } from './session.ts';

const localeCookie = () => document.cookie.match(new RegExp(`(?:^|; )${LOCALE_COOKIE}=([^;]*)`))?.[1];

afterEach(() => {
  document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/`;
  localStorage.clear();
});

describe('the language cookie at the sign-out of a shared computer (decision 055 addendum)', () => {
  it("removes the language the account's profile wrote", async () => {
    saveSession({ token: 'token', userType: 'student' });
    await chooseLocale('ar', 'account');
    expect(localeCookie()).toBe('ar');

    clearSession();
    expect(localeCookie()).toBeUndefined();
    expect(localStorage.length).toBe(0);
  });

  it('keeps the language a visitor chose on a signed-out page', async () => {
    await chooseLocale('es');
    saveSession({ token: 'token', userType: 'teacher' });

    clearSession();
    expect(localeCookie()).toBe('es');
  });

  it('keeps a visitor’s later choice over the account’s', async () => {
    saveSession({ token: 'token', userType: 'teacher' });
    await chooseLocale('ar', 'account');
    // The person picks a language in the switcher afterwards: now the visitor's own.
    await chooseLocale('es');

    clearSession();
    expect(localeCookie()).toBe('es');
  });
});
