import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { plural } from '../../lib/format.ts';

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
        <p className="flex min-h-6 items-center gap-2 text-sm text-slate-700">
          <Spinner className="size-4" /> Searching…
        </p>
      ) : list.count === 0 ? (
        empty
      ) : (
        <p className="flex min-h-6 items-center text-sm text-slate-700">
          {plural(list.count, 'resource')} shown{list.hasNextPage ? '; more below' : ''}
        </p>
      )}
    </div>
  );
}

/** The empty state box: a title and a hint. */
export function EmptyState({ title, hint }: { title: string; hint: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
      <p className="font-semibold text-slate-900">{title}</p>
      <p className="mt-1 text-sm">{hint}</p>
    </div>
  );
}

/** A list that could not be loaded at all, with a retry. */
export function ListFailure({ what, message, onRetry }: { what: string; message: string; onRetry(): void }) {
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-900">
      <p className="font-semibold">{what} could not be loaded.</p>
      <p className="mt-1 text-sm">{message}</p>
      <Button variant="secondary" className="mt-4" onClick={onRetry}>
        <RotateCw className="size-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
