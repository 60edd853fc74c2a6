import type { ReactNode } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { plural } from '../../lib/format.ts';
import { LoadFailure } from '../../components/ui/status-cards.tsx';

type ListState = {
  isPlaceholderData: boolean;
  hasNextPage: boolean;
  count: number;
};

/**
 * One live region above a list: the count, the search in progress, or the
 * empty state is announced (students-page convention).
 */
export function ResourceListStatus({ list, empty }: { list: ListState; empty: ReactNode }) {
  return (
    <div role="status" className="mb-3">
      {list.isPlaceholderData ? (
        <p className="flex min-h-6 items-center gap-2 text-sm text-muted">
          <Spinner className="size-4" /> Searching…
        </p>
      ) : list.count === 0 ? (
        empty
      ) : (
        <p className="flex min-h-6 items-center text-sm text-muted">
          {plural(list.count, 'resource')} shown{list.hasNextPage ? '; more below' : ''}
        </p>
      )}
    </div>
  );
}

/** A list that could not be loaded at all, with a retry. */
export function ListFailure({ what, message, onRetry }: { what: string; message: string; onRetry(): void }) {
  return <LoadFailure title={`${what} could not be loaded.`} message={message} onRetry={onRetry} />;
}
