import { i18n, type Messages } from '@lingui/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localeSchema } from '#shared/fields';
import { passwordRule } from '../features/auth/student-account-fields.ts';
import { activateLocale, browserLocale } from './i18n.ts';

/** A locale's real catalog, compiled from its PO file as the build compiles it (@lingui/vite-plugin). */
async function activate(locale: 'en' | 'es' | 'ar') {
  const { messages } = (await import(`../locales/${locale}/messages.po`)) as { messages: Messages };
  i18n.loadAndActivate({ locale, messages });
}

describe('plurals through the real catalogs (issue 32)', () => {
  it('English: one and other', async () => {
    await activate('en');
    expect([0, 1, 2, 8].map(passwordRule)).toEqual([
      'At least 0 characters.',
      'At least 1 character.',
      'At least 2 characters.',
      'At least 8 characters.',
    ]);
  });

  it('Spanish: one, many (a million) and other', async () => {
    await activate('es');
    expect([0, 1, 2, 8, 1_000_000].map(passwordRule)).toEqual([
      'Al menos 0 caracteres.',
      'Al menos 1 carácter.',
      'Al menos 2 caracteres.',
      'Al menos 8 caracteres.',
      'Al menos 1.000.000 de caracteres.',
    ]);
  });

  it('Arabic: the six forms, zero, one, two, few (3), many (11) and other (100)', async () => {
    await activate('ar');
    expect([0, 1, 2, 3, 11, 100].map(passwordRule)).toEqual([
      'لا حدّ أدنى لعدد الأحرف.',
      'حرف واحد على الأقل.',
      'حرفان على الأقل.',
      '3 أحرف على الأقل.',
      '11 حرفًا على الأقل.',
      '100 حرف على الأقل.',
    ]);
  });
});

describe('the pseudo-locale (issue 32 point 7)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubBrowser(cookie: string) {
    const documentElement = { lang: '', dir: '' };
    vi.stubGlobal('document', { cookie, documentElement });
    vi.stubGlobal('navigator', { languages: ['es-MX'] });
    return documentElement;
  }

  it('is what the cookie turns on: accented English, tagged en-XA, left to right', async () => {
    const html = stubBrowser('studyhall_locale=pseudo');
    expect(browserLocale()).toBe('pseudo');
    await activateLocale(browserLocale());
    expect(i18n.locale).toBe('en-XA');
    expect(html).toEqual({ lang: 'en-XA', dir: 'ltr' });
    expect(passwordRule(8)).toBe('Àţ ĺēàśţ 8 ćĥàŕàćţēŕś.');
  });

  it('is no shipped locale: the browser languages decide without the cookie, the contract refuses it', () => {
    stubBrowser('');
    expect(browserLocale()).toBe('es');
    expect(localeSchema.safeParse('pseudo').success).toBe(false);
  });
});
