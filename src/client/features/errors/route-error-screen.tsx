import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { ChunkLoadError } from '../../lib/lazy-route.ts';

function describe(error: unknown): { heading: string; detail: string; canRetry: boolean } {
  if (error instanceof ChunkLoadError) {
    return {
      heading: error.message, // 'Loading chunk failed' or 'Loading CSS chunk failed'
      detail: 'Part of this screen could not be downloaded. Check your connection, then try again.',
      canRetry: true,
    };
  }
  if (isRouteErrorResponse(error)) {
    return {
      heading: 'Unexpected Application Error!',
      detail:
        error.status === 404
          ? '404 Not Found: there is no page at this address.'
          : `${error.status} ${error.statusText}`,
      canRetry: false,
    };
  }
  return {
    heading: 'Unexpected Application Error!',
    detail: error instanceof Error ? error.message : 'Something went wrong.',
    canRetry: true,
  };
}

/** The router's error screen: unmatched routes, crashes and screen parts that failed to load. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const { heading, detail, canRetry } = describe(error);
  return (
    <div className="flex min-h-screen flex-col">
      <PublicTopNav />
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-16 text-center">
        <h1 className="text-3xl font-bold text-slate-900">{heading}</h1>
        <p className="mt-3 max-w-md text-slate-700">{detail}</p>
        <div className="mt-8 flex gap-3">
          {canRetry ? <Button onClick={() => window.location.reload()}>Try again</Button> : null}
          <Link to="/" className={buttonVariants({ variant: 'secondary' })}>
            Go to the home page
          </Link>
        </div>
      </main>
    </div>
  );
}
