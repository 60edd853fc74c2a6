import { afterEach, describe, expect, it } from 'vitest';
import { LOCALE_FROM_KEY } from './session.ts';
import { signedInLocale, visitorChoice } from './display-locale.ts';

const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;
const browserAsks = (asked: string[]) =>
  Object.defineProperty(navigator, 'languages', { value: asked, configurable: true });

afterEach(() => {
  Object.defineProperty(navigator, 'languages', languages);
  delete (navigator as { languages?: unknown }).languages;
});

describe('the language of a signed-in person (decision 055 addendum)', () => {
  it('is the school’s on "Automatic", whatever the browser asks for', () => {
    browserAsks(['es-MX', 'es']);
    expect(signedInLocale({ own: null, schoolLocale: 'ar' })).toBe('ar');
    browserAsks(['fr-FR']);
    expect(signedInLocale({ own: null, schoolLocale: 'es' })).toBe('es');
  });

  it('is their own when they chose one', () => {
    browserAsks(['ar']);
    expect(signedInLocale({ own: 'es', schoolLocale: 'ar' })).toBe('es');
  });
});

describe('the language a visitor chose before signing in', () => {
  it('is the switcher’s cookie, unless the account wrote it or it is the pseudo-locale', () => {
    expect(visitorChoice()).toBeUndefined();
    document.cookie = 'studyhall_locale=ar; Path=/';
    expect(visitorChoice()).toBe('ar');
    localStorage.setItem(LOCALE_FROM_KEY, 'account');
    expect(visitorChoice()).toBeUndefined();
    localStorage.clear();
    document.cookie = 'studyhall_locale=pseudo; Path=/';
    expect(visitorChoice()).toBeUndefined();
  });
});
