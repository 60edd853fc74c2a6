import { useEffect, useState } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
// buttonVariants (cva) and not <Button>: this screen is in the entry chunk, which every page
// loads, and its buttons take no classes of a caller to add (decision 027).
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { PublicTopNav, type PublicTopNavTexts } from '../../components/layout/public-top-nav.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { browserLocale } from '../../lib/display-locale.ts';
import { ChunkLoadError } from '../../lib/lazy-route.ts';
import { dashboardPathFor, readSession } from '../../lib/session.ts';
// A type only: the module itself is imported on demand (useTranslatedTexts).
import type { prepareLocale, translatedErrorTexts } from './route-error-texts.ts';

/** What went wrong, in no language: the texts module words it. */
export type ErrorFacts = {
  kind: 'chunk' | 'css-chunk' | 'not-found' | 'status' | 'unexpected';
  /** The HTTP status line, or a program's error text (not ours to translate). */
  detail: string | undefined;
  isSignedIn: boolean;
};

/** The screen's words. */
export type ErrorTexts = { heading: string; detail: string; retry: string; home: string; nav: PublicTopNavTexts };

function factsOf(error: unknown, isSignedIn: boolean): ErrorFacts {
  if (error instanceof ChunkLoadError)
    return { kind: error.isCss ? 'css-chunk' : 'chunk', detail: undefined, isSignedIn };
  // A mistyped or outdated address is not an application error: say so kindly (issue 18).
  if (isRouteErrorResponse(error) && error.status === 404) return { kind: 'not-found', detail: undefined, isSignedIn };
  if (isRouteErrorResponse(error)) return { kind: 'status', detail: `${error.status} ${error.statusText}`, isSignedIn };
  return { kind: 'unexpected', detail: error instanceof Error ? error.message : undefined, isSignedIn };
}

/**
 * The English words, the code's own: shown when no translation is active (the landing route,
 * a catalog that failed to load), so this screen never depends on a download to say anything.
 */
function englishTexts(facts: ErrorFacts): ErrorTexts {
  const home = facts.isSignedIn ? 'Go to your dashboard' : 'Go to the home page';
  const retry = 'Try again';
  const nav = { navigation: 'Main', login: 'Login' };
  switch (facts.kind) {
    case 'chunk':
    case 'css-chunk':
      return {
        heading: facts.kind === 'css-chunk' ? 'Loading CSS chunk failed' : 'Loading chunk failed',
        detail: 'Part of this screen could not be downloaded. Check your connection, then try again.',
        retry,
        home,
        nav,
      };
    case 'not-found':
      return {
        heading: 'Page not found',
        detail: 'There is no page at this address. Check it for a typo, or start again from the home page.',
        retry,
        home,
        nav,
      };
    case 'status':
    case 'unexpected':
      return {
        heading: 'Unexpected Application Error!',
        detail: facts.detail ?? 'Something went wrong.',
        retry,
        home,
        nav,
      };
  }
}

type TextsModule = { prepareLocale: typeof prepareLocale; translatedErrorTexts: typeof translatedErrorTexts };
/** Kept once imported: a second error screen words itself at once. */
let textsModule: TextsModule | undefined;

/**
 * The translated words, when the page is in another language than English: Lingui's runtime, the
 * texts and (if no screen loaded it yet) the locale's catalog come in chunks of their own (this
 * screen is in the entry chunk, which the landing route shares and which stays without Lingui,
 * decision 054). `undefined` while they download; null when there is no translation (a download
 * failed, as when this screen says a chunk could not load: English then).
 */
function useTranslatedTexts(facts: ErrorFacts): ErrorTexts | null | undefined {
  // The visit's locale, not only the page's lang: the pseudo-locale's page says "en".
  const needsTranslation = browserLocale() !== 'en';
  const [loaded, setLoaded] = useState<TextsModule | null | undefined>(needsTranslation ? textsModule : null);
  useEffect(() => {
    if (loaded !== undefined) return;
    let isCurrent = true;
    import('./route-error-texts.ts')
      .then(async (module) => {
        await module.prepareLocale();
        return module;
      })
      .then(
        (module) => {
          textsModule = module;
          if (isCurrent) setLoaded(module);
        },
        () => {
          if (isCurrent) setLoaded(null);
        },
      );
    return () => {
      isCurrent = false;
    };
  }, [loaded]);
  if (loaded === undefined) return undefined;
  return loaded ? loaded.translatedErrorTexts(facts) : null;
}

/**
 * The router's error screen: 'Page not found' for an address no route matches, SPEC §8's
 * 'Unexpected Application Error!' for real errors, and screen parts that failed to load. It is
 * outside the app's providers (the root route's error element): no useLingui here.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  // Someone signed in goes back to their dashboard, not to the public home page.
  const session = readSession();
  const facts = factsOf(error, Boolean(session));
  const translated = useTranslatedTexts(facts);
  const homePath = session ? dashboardPathFor(session.userType) : '/';
  const canRetry = facts.kind !== 'not-found' && facts.kind !== 'status';
  const texts = translated ?? englishTexts(facts);
  const content = (
    <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
      <PageTitle>{texts.heading}</PageTitle>
      <h1 className="text-3xl font-bold text-fg">{texts.heading}</h1>
      <p className="mt-3 max-w-md text-muted">{texts.detail}</p>
      <div className="mt-8 flex gap-3">
        {canRetry ? (
          <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
            {texts.retry}
          </button>
        ) : null}
        <Link to={homePath} className={buttonVariants({ variant: 'secondary' })}>
          {texts.home}
        </Link>
      </div>
    </main>
  );
  return (
    <div className="flex min-h-screen flex-col">
      {/* Its words in the screen's language: this screen is outside the translation layer's provider. */}
      <PublicTopNav texts={translated?.nav} />
      {translated === undefined ? (
        // The words are on their way (a moment): no English flash before them.
        <main id="main" aria-busy="true" className="flex-1" />
      ) : translated ? (
        content
      ) : (
        // English in a page of another language: said and laid out as English.
        <div lang="en" dir="ltr" className="contents">
          {content}
        </div>
      )}
    </div>
  );
}
