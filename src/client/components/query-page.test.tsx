import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api.ts';
import { renderTranslated } from '../testing/render-translated.tsx';
import { QueryPage } from './query-page.tsx';

const FAILURES = {
  notFound: { heading: 'Report not found', detail: 'There is no report at this address.' },
  forbidden: { heading: 'Not yours', detail: 'Only its teacher can see it.' },
  failed: 'The report could not be loaded',
};

/** The page around a query whose answers `answers` gives, one a fetch: a thrown error fails it. */
function renderPage(answers: (() => Promise<string>)[]) {
  let fetches = 0;
  function Page() {
    const query = useQuery({
      queryKey: ['report'],
      queryFn: () => answers[Math.min(fetches++, answers.length - 1)]!(),
      retry: false,
    });
    return (
      <QueryPage
        query={query}
        backLink={<a href="/back">Back</a>}
        title="Report"
        loading="Loading the report…"
        failures={FAILURES}
      >
        {(data) => <h1>{data}</h1>}
      </QueryPage>
    );
  }
  const client = new QueryClient();
  const view = renderTranslated(
    <QueryClientProvider client={client}>
      <Page />
    </QueryClientProvider>,
  );
  return { ...view, fetches: () => fetches };
}

/** An answer that never comes: the page stays loading. */
const never = () => new Promise<string>(() => undefined);

describe('QueryPage', () => {
  it('shows the title and what is loading under the back link while the query is on its way', () => {
    renderPage([never]);
    expect(screen.getByRole('link', { name: 'Back' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Report' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the report…');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the data once it comes, still under the back link, and nothing of the loading', async () => {
    renderPage([async () => 'Report of Friday']);
    expect(await screen.findByRole('heading', { level: 1, name: 'Report of Friday' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it.each([
    ['NOT_FOUND', FAILURES.notFound],
    ['VALIDATION_FAILED', FAILURES.notFound],
    ['FORBIDDEN', FAILURES.forbidden],
  ] as const)('names a %s in the screen’s words, with no retry', async (code, text) => {
    renderPage([() => Promise.reject(new ApiError(code))]);
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { level: 1, name: text.heading })).toBeInTheDocument();
    expect(alert).toHaveTextContent(text.heading);
    expect(alert).toHaveTextContent(text.detail);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toBeInTheDocument();
  });

  it('gives any other failure the error’s own words and a retry that asks again', async () => {
    const { fetches } = renderPage([
      () => Promise.reject(new Error('The server did not answer.')),
      async () => 'Report of Friday',
    ]);
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { level: 1, name: FAILURES.failed })).toBeInTheDocument();
    expect(alert).toHaveTextContent('The server did not answer.');
    screen.getByRole('button', { name: 'Try again' }).click();
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Report of Friday' })).toBeInTheDocument(),
    );
    expect(fetches()).toBe(2);
  });
});
