import { useLingui } from '@lingui/react/macro';
import { STUDENT_ASSIGNMENT_GROUPS, type StudentAssignmentGroup } from '#shared/assignments';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { usePagedList } from '../../lib/paged-list.ts';
import { AssignmentRow, GROUP_TITLES, useEmptyGroupText } from './student-assignment-parts.tsx';
import { studentAssignmentQueries } from './student-assignment-queries.ts';

/** /dashboard/student/assignments: to do, missing, done and returned, each paged by the server (decision 064). */
export function Component() {
  const { t } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <PageTitle>{t`Assignments`}</PageTitle>
      <PageHeader
        title={t`Assignments`}
        description={t`Work your teachers gave your classes: what is left to do, what is late, and what came back with a grade.`}
      />
      {STUDENT_ASSIGNMENT_GROUPS.map((group) => (
        <GroupSection key={group} group={group} />
      ))}
    </div>
  );
}

function GroupSection({ group }: { group: StudentAssignmentGroup }) {
  const { t } = useLingui();
  const list = usePagedList(studentAssignmentQueries.group(group));
  const emptyText = useEmptyGroupText();
  const headingId = `assignments-${group}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-fg">
        {t(GROUP_TITLES[group])}
      </h2>
      {list.isPending ? (
        <LoadingStatus className="mt-4">{t`Loading…`}</LoadingStatus>
      ) : list.isError ? (
        <LoadFailure
          className="mt-4"
          title={t`These assignments could not be loaded.`}
          message={list.error.message}
          onRetry={() => void list.refetch()}
        />
      ) : list.items.length === 0 ? (
        <EmptyState padding="sm" className="mt-4 text-center" title={emptyText(group)} />
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {list.items.map((assignment) => (
            <AssignmentRow key={assignment._id} assignment={assignment} />
          ))}
        </ul>
      )}
      <LoadMoreButton list={list} className="mt-4" />
    </section>
  );
}
