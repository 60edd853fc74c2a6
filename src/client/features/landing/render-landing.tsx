import { i18n, type Messages } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { SOURCE_LOCALE, type Locale } from '#shared/locales';
import { messages as arMessages } from '../../locales/ar/messages.po';
import { messages as enMessages } from '../../locales/en/messages.po';
import { messages as esMessages } from '../../locales/es/messages.po';
import { LandingPage } from './landing-page.tsx';

/** Every shipped locale's catalog: the build prerenders the page once in each (a new locale must be added here). */
const CATALOGS: Record<Locale, Messages> = { en: enMessages, es: esMessages, ar: arMessages };

function activate(locale: Locale) {
  i18n.loadAndActivate({ locale, messages: CATALOGS[locale] });
}

/**
 * The landing page's HTML in `locale`, rendered at build time from the same component the app
 * shows at / (scripts/vite-prerender-landing.ts puts it into landing.html, and landing.es.html…
 * for the other locales). Outside the data router, a StaticRouter gives the page's <Link>s what
 * they need to render as plain <a href> links. Every text is in the markup already: the page
 * downloads no catalog and no Lingui. Runs in Node only: nothing in the browser bundle imports it.
 */
export function renderLandingMarkup(locale: Locale = SOURCE_LOCALE): string {
  activate(locale);
  return renderToStaticMarkup(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <StaticRouter location="/">
          <LandingPage />
        </StaticRouter>
      </I18nProvider>
    </StrictMode>,
  );
}

/** The landing page's `<meta name="description">` in `locale` (index.html's, in English). */
export function landingDescription(locale: Locale = SOURCE_LOCALE): string {
  activate(locale);
  return t`StudyHall: quizzes, resources, whiteboard and video rooms for teachers and students.`;
}
