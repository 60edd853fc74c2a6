import { describe, expect, it } from 'vitest';
import { CATALOG_PREFIX, messageIdsIn, parseCatalogId } from './vite-route-catalogs.ts';

describe('route catalogs: reading message ids (decision 057)', () => {
  const ids = new Set(['RPXn8S', 'nMEMfZ', '+zeXJd', 'a/b=cD']);

  it('finds the ids the macros leave, in every quoting the build writes', () => {
    const built = 'label:e._({id:`RPXn8S`}),hint:e._({id:"nMEMfZ"}),(0,_.jsx)(r,{id:\'+zeXJd\'})';
    expect([...messageIdsIn(built, ids)].sort()).toEqual(['+zeXJd', 'RPXn8S', 'nMEMfZ']);
  });

  it('counts only the catalog ids among the strings, and a string that is an id by chance (a cost, never a gap)', () => {
    expect([...messageIdsIn('className:`mt-4`,to:"/auth",x:"a/b=cD"', ids)]).toEqual(['a/b=cD']);
  });

  it("names a catalog chunk's locale and route", () => {
    expect(parseCatalogId(`${CATALOG_PREFIX}ar/features/auth/teacher-register-page.tsx`)).toEqual({
      locale: 'ar',
      route: 'features/auth/teacher-register-page.tsx',
    });
    expect(parseCatalogId('/src/client/router.tsx')).toBeNull();
  });
});
