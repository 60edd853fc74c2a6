// First: before any zod schema is built (see the file).
import './lib/zod-setup.ts';
import { followNavigations, prefetchBoard } from './features/class-boards/board-prefetch.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter, routes } from './router.tsx';
import { setPreloadableRoutes } from './lib/route-preload.ts';
import './styles.css';

// A class board opened by its address starts downloading now, before the router and its chunk.
prefetchBoard(window.location.pathname);

setPreloadableRoutes(routes);
const router = createAppRouter();
// A board opened from a link inside the app starts downloading as the navigation starts.
followNavigations(router);

// The query cache, the toaster and the translations live in app-providers.tsx, a layout route: the
// landing page does not need them. Its loader activates the locale before any translated screen renders.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
