import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { activateLocale, browserLocale } from '../../lib/i18n.ts';
import type { ErrorFacts, ErrorTexts } from './route-error-screen.tsx';

/**
 * Activates the visitor's locale when no screen has yet (a mistyped address opened directly: the
 * app's providers, which do it otherwise, never ran). Rejects when its catalog cannot download.
 */
export async function prepareLocale(): Promise<void> {
  if (!i18n.locale) await activateLocale(browserLocale());
}

/**
 * The error screen's words in the active locale, or null when no catalog is active: the screen
 * then keeps its English. A module of its own, imported only when the page is not in English, so
 * the entry chunk stays without Lingui.
 */
export function translatedErrorTexts(facts: ErrorFacts): ErrorTexts | null {
  if (!i18n.locale) return null;
  const home = facts.isSignedIn ? t`Go to your dashboard` : t`Go to the home page`;
  const retry = t`Try again`;
  // The header's words, as PublicTopNav says them inside the provider (the same messages).
  const nav = { navigation: t({ comment: 'The main navigation landmark', message: 'Main' }), login: t`Login` };
  switch (facts.kind) {
    case 'chunk':
    case 'css-chunk':
      return {
        heading: facts.kind === 'css-chunk' ? t`Loading CSS chunk failed` : t`Loading chunk failed`,
        detail: t`Part of this screen could not be downloaded. Check your connection, then try again.`,
        retry,
        home,
        nav,
      };
    case 'not-found':
      return {
        heading: t`Page not found`,
        detail: t`There is no page at this address. Check it for a typo, or start again from the home page.`,
        retry,
        home,
        nav,
      };
    case 'status':
    case 'unexpected':
      return {
        heading: t`Unexpected Application Error!`,
        // An HTTP status line or a program's own error text: not a message of ours.
        detail: facts.detail ?? t`Something went wrong.`,
        retry,
        home,
        nav,
      };
  }
}
