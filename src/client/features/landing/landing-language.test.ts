import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCALE_CHOICE_MARKER, rememberLocaleOf } from './landing-language.ts';

/** A language link of the landing page, as the prerendered markup has it. */
const linkTo = (locale: string) =>
  ({ getAttribute: (name: string) => (name === LOCALE_CHOICE_MARKER ? locale : null) }) as unknown as Element;

describe('rememberLocaleOf (the landing page’s language links)', () => {
  let cookies: string[];
  beforeEach(() => {
    cookies = [];
    vi.stubGlobal('document', {
      set cookie(value: string) {
        cookies.push(value);
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps the language the link names in the cookie the server and the app read, for a year', () => {
    rememberLocaleOf(linkTo('ar'));
    expect(cookies).toEqual(['studyhall_locale=ar; Max-Age=31536000; Path=/; SameSite=Lax']);
  });

  it('keeps nothing for a link naming no shipped language', () => {
    rememberLocaleOf(linkTo('xx'));
    rememberLocaleOf(linkTo(''));
    expect(cookies).toEqual([]);
  });
});
