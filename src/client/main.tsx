// First: before any zod schema is built (see the file).
import './lib/zod-setup.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { activateLocale, browserLocale } from './lib/i18n.ts';
import { createAppRouter } from './router.tsx';
import './styles.css';

// The locale's catalog first, so the first paint is already in the visitor's language (decision 054);
// a catalog that cannot load leaves the source English rather than no page.
// The query cache, the toaster and the I18nProvider live in app-providers.tsx, a layout route.
void activateLocale(browserLocale())
  .catch(() => {})
  .finally(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <RouterProvider router={createAppRouter()} />
      </StrictMode>,
    );
  });
