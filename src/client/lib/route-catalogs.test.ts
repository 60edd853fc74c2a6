import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from './i18n.ts';
import { loadRouteCatalog, type RouteCatalogs } from './route-catalogs.ts';

/** A route's catalogs as the build passes them (decision 057): one message, worded per locale. */
function routeCatalogs(id: string, words: Record<'en' | 'es' | 'ar', string>) {
  const loads: string[] = [];
  const catalogs: RouteCatalogs = Object.fromEntries(
    Object.entries(words).map(([locale, word]) => [
      locale,
      () => {
        loads.push(locale);
        return Promise.resolve({ messages: { [id]: word } });
      },
    ]),
  );
  return { catalogs, loads };
}

describe('catalogs per route (decision 057)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("loads a route's messages in the locale shown, and a change of locale loads every shown route's in the new one", async () => {
    vi.stubGlobal('document', { cookie: 'studyhall_locale=es', documentElement: { lang: '', dir: '' } });
    vi.stubGlobal('navigator', { languages: ['en'] });
    const first = routeCatalogs('route.one', { en: 'One', es: 'Uno', ar: 'واحد' });

    // Before any locale is active: the visit's (the cookie's), ready when the providers activate it.
    await loadRouteCatalog(first.catalogs);
    expect(first.loads).toEqual(['es']);
    await activateLocale('es');
    expect(i18n._('route.one')).toBe('Uno');

    // A route shown later brings its messages in the active locale.
    const second = routeCatalogs('route.two', { en: 'Two', es: 'Dos', ar: 'اثنان' });
    await loadRouteCatalog(second.catalogs);
    expect(second.loads).toEqual(['es']);
    expect(i18n._('route.two')).toBe('Dos');

    // The switcher: both routes' messages in Arabic, and the whole catalog's (tests load it all) kept.
    await activateLocale('ar');
    expect(first.loads).toEqual(['es', 'ar']);
    expect(second.loads).toEqual(['es', 'ar']);
    expect([i18n._('route.one'), i18n._('route.two')]).toEqual(['واحد', 'اثنان']);
  });

  it('rejects when the route has no catalog in the locale shown: a screen must not fall back to English unseen', async () => {
    const { catalogs } = routeCatalogs('route.three', { en: 'Three', es: 'Tres', ar: 'ثلاثة' });
    delete catalogs.ar;
    await expect(loadRouteCatalog(catalogs)).rejects.toThrow('No catalog in ar');
  });

  it("activates a locale when a route's catalog fails to load: the route says so itself, then loads it on retry", async () => {
    vi.stubGlobal('document', { cookie: 'studyhall_locale=es', documentElement: { lang: '', dir: '' } });
    vi.stubGlobal('navigator', { languages: ['en'] });
    const { catalogs, loads } = routeCatalogs('route.four', { en: 'Four', es: 'Cuatro', ar: 'أربعة' });
    const working = { ...catalogs };
    const failing = () => Promise.reject(new Error('Failed to fetch dynamically imported module: catalog'));
    Object.assign(catalogs, { en: failing, es: failing, ar: failing });
    const routeLoad = loadRouteCatalog(catalogs);
    // The providers activate the locale while the route's catalog is failing: not their failure.
    await expect(activateLocale('es')).resolves.toBeUndefined();
    await expect(routeLoad).rejects.toThrow('Failed to fetch');
    Object.assign(catalogs, working);
    await loadRouteCatalog(catalogs);
    expect(loads).toEqual(['es']);
    expect(i18n._('route.four')).toBe('Cuatro');
  });
});
