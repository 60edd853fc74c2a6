import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * The client's translation layer (decision 054): English is the source, Spanish and Arabic ship,
 * `pseudo` is the accented, longer English that shows text which did not come through the layer.
 * `npm run i18n:extract` writes the catalogs; the Vite plugin compiles the one a visitor needs.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'ar', 'pseudo'],
  pseudoLocale: 'pseudo',
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/src/client/locales/{locale}/messages',
      include: ['<rootDir>/src/client'],
      exclude: ['**/node_modules/**', '**/*.test.tsx', '**/*.test.ts'],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
