import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { Component as LandingPage } from './landing-page.tsx';

/**
 * The landing page's HTML, rendered at build time from the same component the app shows at /
 * (scripts/vite-prerender-landing.ts puts it into landing.html). Outside the data router, a
 * StaticRouter gives the page's <Link>s what they need to render as plain <a href> links.
 * Runs in Node only: nothing in the browser bundle imports it.
 */
export function renderLandingMarkup(): string {
  return renderToStaticMarkup(
    <StrictMode>
      <StaticRouter location="/">
        <LandingPage />
      </StaticRouter>
    </StrictMode>,
  );
}
