import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { z } from 'zod/mini';
import { listClassAssignments } from '#shared/contract/assignments';
import { buttonVariants } from '../../components/ui/button.tsx';
import { ClassIdSelect, FilterForm } from '../../components/ui/filter-fields.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { myClassesQuery } from '../classes/my-classes-query.ts';
import { NEW_ASSIGNMENT_PATH, newAssignmentForClassPath } from './assignment-paths.ts';
import { ClassAssignmentList } from './teacher-assignment-list.tsx';

const ASSIGNMENT_FILTERS = z.object({ class: z.catch(listClassAssignments.params.shape.id, '') });

/**
 * /dashboard/teacher/assignments (decision 063): the assignments of one of the teacher's
 * classes (the class in the address, the first active one by default), with how many were
 * handed in and how many wait for a grade. The server lists them per class.
 */
export function Component() {
  const { t } = useLingui();
  const { filters, setFilter } = useUrlFilters(ASSIGNMENT_FILTERS);
  const classes = useQuery(myClassesQuery());
  const taught = classes.data ?? [];
  const classId =
    (taught.some((entry) => entry._id === filters.class) ? filters.class : undefined) ??
    taught.find((entry) => !entry.isArchived)?._id ??
    taught[0]?._id;

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageTitle>{t`Assignments`}</PageTitle>
      <PageHeader
        title={t`Assignments`}
        description={t`Work you hand out to your classes: open one to grade what was handed in.`}
        actions={
          <Link to={classId ? newAssignmentForClassPath(classId) : NEW_ASSIGNMENT_PATH} className={buttonVariants()}>
            <Plus className="size-4" aria-hidden="true" />
            {t`New assignment`}
          </Link>
        }
      />
      <div className="mt-6 flex flex-col gap-6">
        {classes.isPending ? (
          <LoadingStatus>{t`Loading your classes…`}</LoadingStatus>
        ) : classes.isError ? (
          <LoadFailure
            title={t`Your classes could not be loaded.`}
            message={classes.error.message}
            onRetry={() => void classes.refetch()}
          />
        ) : classId === undefined ? (
          <EmptyState
            title={t`You do not teach a class yet`}
            hint={t`Create a class first: assignments are handed out to classes.`}
          />
        ) : (
          <>
            <FilterForm label={t`Filter assignments`} className="max-w-xs" onApply={() => undefined}>
              <ClassIdSelect value={classId} classes={taught} onChange={(value) => setFilter('class', value)} />
            </FilterForm>
            <ClassAssignmentList
              classId={classId}
              emptyHint={t`Create one with New assignment: the class’s students see it on their dashboard.`}
            />
          </>
        )}
      </div>
    </div>
  );
}
