import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';

/** The page as the server sends it for this language (its `lang`), with the switcher's cookie. */
function pageIn(locale: string) {
  document.cookie = `studyhall_locale=${locale}; Path=/`;
  document.documentElement.lang = locale;
}

afterEach(() => {
  document.cookie = 'studyhall_locale=; Max-Age=0; Path=/';
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('the route error screen in the visitor’s language (issue 32)', () => {
  it('says "Page not found" in English, and leads home', async () => {
    pageIn('en');
    await openApp('/no-such-page');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(heading.closest('[lang]')).toHaveAttribute('lang', 'en');
  });

  it('says it in Arabic, right to left, on a mistyped address opened directly', async () => {
    pageIn('ar');
    await openApp('/no-such-page');
    const heading = await screen.findByRole('heading', { level: 1, name: 'الصفحة غير موجودة' });
    expect(screen.getByRole('link', { name: 'الانتقال إلى الصفحة الرئيسية' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'إعادة المحاولة' })).not.toBeInTheDocument();
    // No English box around it: the page's own language and direction.
    expect(heading.closest('[lang]')).toBe(document.documentElement);
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });
});
