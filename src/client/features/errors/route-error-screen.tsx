import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
// buttonVariants (cva) and not <Button>: this screen is in the entry chunk, which stays
// without tailwind-merge (about 8 kB) for the landing page's in-app route (decision 027).
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { ChunkLoadError } from '../../lib/lazy-route.ts';
import { dashboardPathFor, readSession } from '../../lib/session.ts';
import { Untranslated } from '../../components/untranslated.tsx';

function describe(error: unknown): { heading: string; detail: string; canRetry: boolean } {
  if (error instanceof ChunkLoadError) {
    return {
      heading: error.message, // 'Loading chunk failed' or 'Loading CSS chunk failed'
      detail: 'Part of this screen could not be downloaded. Check your connection, then try again.',
      canRetry: true,
    };
  }
  // A mistyped or outdated address is not an application error: say so kindly (issue 18).
  if (isRouteErrorResponse(error) && error.status === 404) {
    return {
      heading: 'Page not found',
      detail: 'There is no page at this address. Check it for a typo, or start again from the home page.',
      canRetry: false,
    };
  }
  if (isRouteErrorResponse(error)) {
    return { heading: 'Unexpected Application Error!', detail: `${error.status} ${error.statusText}`, canRetry: false };
  }
  return {
    heading: 'Unexpected Application Error!',
    detail: error instanceof Error ? error.message : 'Something went wrong.',
    canRetry: true,
  };
}

/**
 * The router's error screen: 'Page not found' for an address no route matches, SPEC §8's
 * 'Unexpected Application Error!' for real errors, and screen parts that failed to load.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  const { heading, detail, canRetry } = describe(error);
  // Someone signed in goes back to their dashboard, not to the public home page.
  const session = readSession();
  const way = session
    ? { to: dashboardPathFor(session.userType), label: 'Go to your dashboard' }
    : { to: '/', label: 'Go to the home page' };
  return (
    <Untranslated>
      <div className="flex min-h-screen flex-col">
        <PublicTopNav />
        <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
          <PageTitle>{heading}</PageTitle>
          <h1 className="text-3xl font-bold text-fg">{heading}</h1>
          <p className="mt-3 max-w-md text-muted">{detail}</p>
          <div className="mt-8 flex gap-3">
            {canRetry ? (
              <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
                Try again
              </button>
            ) : null}
            <Link to={way.to} className={buttonVariants({ variant: 'secondary' })}>
              {way.label}
            </Link>
          </div>
        </main>
      </div>
    </Untranslated>
  );
}
