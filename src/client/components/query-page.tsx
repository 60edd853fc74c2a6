import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api.ts';
import { PageHeader } from './ui/page-header.tsx';
import { LoadingStatus } from './ui/spinner.tsx';
import { LoadFailure } from './ui/status-cards.tsx';

/** A failure the screen names in its own words: the page's heading and the sentence under it. */
export type FailureText = { heading: string; detail: string };

/** What a screen says when its query fails, by the failure's code. */
export type QueryPageFailures = {
  /** NOT_FOUND, or an address the server could not read (VALIDATION_FAILED): a retry would find nothing. */
  notFound: FailureText;
  /** FORBIDDEN: someone else's, and a retry would not change that. */
  forbidden: FailureText;
  /** Anything else: this heading over the error's own words, with a retry. */
  failed: string;
};

function describeFailure(error: Error, failures: QueryPageFailures): FailureText & { canRetry: boolean } {
  if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED')) {
    return { ...failures.notFound, canRetry: false };
  }
  if (error instanceof ApiError && error.code === 'FORBIDDEN') return { ...failures.forbidden, canRetry: false };
  return { heading: failures.failed, detail: error.message, canRetry: true };
}

/**
 * A screen that is one query's data, in its three states under the same back link: while it
 * loads, the screen's title and what is loading; when it fails, the failure as the title and a
 * card (with a retry where one may help); then the screen itself.
 */
export function QueryPage<T>({
  query,
  backLink,
  title,
  loading,
  failures,
  children,
}: {
  query: UseQueryResult<T>;
  backLink: ReactNode;
  /** The heading while the data is on its way. */
  title: string;
  /** "Loading the report…": a whole sentence, translated as one. */
  loading: ReactNode;
  failures: QueryPageFailures;
  children(data: T): ReactNode;
}) {
  let content: ReactNode;
  if (query.isPending) {
    content = (
      <>
        <PageHeader className="mt-3" title={title} />
        <LoadingStatus className="mt-4">{loading}</LoadingStatus>
      </>
    );
  } else if (query.isError) {
    const failure = describeFailure(query.error, failures);
    content = (
      <>
        <PageHeader className="mt-3" title={failure.heading} />
        <LoadFailure
          className="mt-4"
          title={failure.heading}
          message={failure.detail}
          onRetry={failure.canRetry ? () => void query.refetch() : undefined}
        />
      </>
    );
  } else {
    content = children(query.data);
  }
  return (
    <div className="mx-auto w-full max-w-6xl">
      {backLink}
      {content}
    </div>
  );
}
