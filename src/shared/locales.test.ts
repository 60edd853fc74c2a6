import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies.ts';
import { matchLocale, parseAcceptLanguage, resolveLocale } from './locales.ts';

describe('resolveLocale (decision 054)', () => {
  it('takes the explicit choice first, whatever the browser says', () => {
    expect(resolveLocale({ chosen: 'ar', languages: ['es-ES', 'en'] })).toBe('ar');
  });

  it('takes the first of the browser’s languages that ships when nothing was chosen', () => {
    expect(resolveLocale({ languages: ['fr-FR', 'es-MX', 'ar'] })).toBe('es');
    expect(resolveLocale({ chosen: 'xx', languages: ['ar-SA'] })).toBe('ar');
  });

  it('falls back to the school’s default, then to English', () => {
    expect(resolveLocale({ languages: ['fr', 'de'], schoolDefault: 'es' })).toBe('es');
    expect(resolveLocale({ languages: ['fr'], schoolDefault: 'xx' })).toBe('en');
    expect(resolveLocale({})).toBe('en');
  });
});

describe('the language tags a browser sends', () => {
  it('orders Accept-Language by weight, keeping the order of equal weights, and drops q=0 and *', () => {
    expect(parseAcceptLanguage('fr;q=0.5, ar-EG, es;q=0.9, de;q=0, *;q=0.1, en')).toEqual(['ar-EG', 'en', 'es', 'fr']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('matches a regional tag to its language', () => {
    expect(matchLocale(['pt-BR', 'ES_ar'])).toBe('es');
    expect(matchLocale(['pt'])).toBeUndefined();
  });

  it('reads one cookie among others', () => {
    expect(readCookie('a=1; studyhall_locale=ar; b=2', 'studyhall_locale')).toBe('ar');
    expect(readCookie('other_studyhall_locale=es', 'studyhall_locale')).toBeUndefined();
    expect(readCookie(undefined, 'studyhall_locale')).toBeUndefined();
    expect(readCookie('studyhall_locale=%E0%A4%A', 'studyhall_locale')).toBeUndefined();
  });
});
