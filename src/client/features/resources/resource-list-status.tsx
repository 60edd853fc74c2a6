import { Plural, Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
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
  const { count } = list;
  return (
    <div role="status" className="mb-3">
      {list.isPlaceholderData ? (
        <p className="flex min-h-6 items-center gap-2 text-sm text-muted">
          <Spinner className="size-4" /> <Trans>Searching…</Trans>
        </p>
      ) : count === 0 ? (
        empty
      ) : (
        <p className="flex min-h-6 items-center text-sm text-muted">
          {list.hasNextPage ? (
            <Plural value={count} one="# resource shown; more below" other="# resources shown; more below" />
          ) : (
            <Plural value={count} one="# resource shown" other="# resources shown" />
          )}
        </p>
      )}
    </div>
  );
}

/** A list that could not be loaded at all, with a retry. */
export function ListFailure({ title, message, onRetry }: { title: string; message: string; onRetry(): void }) {
  return <LoadFailure title={title} message={message} onRetry={onRetry} />;
}
