import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import type { StudentAssignmentSummary } from '#shared/assignments';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { usePagedList, type PagedList } from '../../lib/paged-list.ts';
import { AssignmentRow } from './student-assignment-parts.tsx';
import { STUDENT_ASSIGNMENTS_PATH, studentAssignmentQueries } from './student-assignment-queries.ts';

/** How many of a group the summary lists; the rest is on the assignments page. */
const SHOWN = 3;

/**
 * The dashboard's view of the assignments (decision 064): how many are to do and missing, and the
 * next ones. The same first pages as the assignments page (one cache entry each).
 */
export function StudentAssignmentsSummary() {
  const { t } = useLingui();
  const todo = usePagedList(studentAssignmentQueries.group('todo'));
  const missing = usePagedList(studentAssignmentQueries.group('missing'));
  return (
    <section
      aria-labelledby="assignments-summary-title"
      className={cn(cardVariants({ padding: 'md' }), 'flex flex-col gap-4')}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="assignments-summary-title" className="text-xl font-bold text-fg">
          {t`Assignments`}
        </h2>
        <Link
          to={STUDENT_ASSIGNMENTS_PATH}
          className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
        >
          <Trans>All assignments</Trans>
          <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden="true" />
        </Link>
      </div>
      {todo.isPending || missing.isPending ? (
        <LoadingStatus>{t`Loading…`}</LoadingStatus>
      ) : todo.isError || missing.isError ? (
        <p className="text-danger">{t`These assignments could not be loaded.`}</p>
      ) : (
        <>
          <p className="text-fg" data-testid="assignments-counts">
            <GroupCount list={todo} kind="todo" /> · <GroupCount list={missing} kind="missing" />
          </p>
          <SummaryList items={[...missing.items.slice(0, SHOWN), ...todo.items.slice(0, SHOWN)]} />
        </>
      )}
    </section>
  );
}

/** "2 to do", or "more than 20 to do" when the first page is full and more follow. */
function GroupCount({ list, kind }: { list: PagedList<StudentAssignmentSummary>; kind: 'todo' | 'missing' }) {
  const count = list.data?.pages[0]?.data.length ?? 0;
  const hasMore = list.data?.pages[0]?.page?.hasMore ?? false;
  if (kind === 'todo')
    return hasMore ? (
      <Plural value={count} one="more than # to do" other="more than # to do" />
    ) : (
      <Plural value={count} one="# to do" other="# to do" />
    );
  return hasMore ? (
    <Plural value={count} one="more than # missing" other="more than # missing" />
  ) : (
    <Plural value={count} one="# missing" other="# missing" />
  );
}

function SummaryList({ items }: { items: StudentAssignmentSummary[] }) {
  if (items.length === 0)
    return (
      <p className="text-muted">
        <Trans>Nothing to do or missing. Well done.</Trans>
      </p>
    );
  return (
    <ul className="flex flex-col gap-3">
      {items.map((assignment) => (
        <AssignmentRow key={assignment._id} assignment={assignment} />
      ))}
    </ul>
  );
}
