import { Trans } from '@lingui/react/macro';
import { Button } from './button.tsx';

type PagedList = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): Promise<unknown> };

/** "Load more" under a server-paged list (TanStack infinite query); nothing when all is loaded. */
export function LoadMoreButton({ list, className = 'mt-6' }: { list: PagedList; className?: string }) {
  if (!list.hasNextPage) return null;
  return (
    <div className={`flex justify-center ${className}`}>
      <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {list.isFetchingNextPage ? <Trans>Loading…</Trans> : <Trans>Load more</Trans>}
      </Button>
    </div>
  );
}
