import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Copy, Pencil, Send, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useParams } from 'react-router';
import { z } from 'zod/mini';
import type { HandInRow, TeacherAssignment } from '#shared/assignments';
import { returnAllHandIns } from '#shared/contract/assignments';
import { MarkdownText } from '../../components/markdown-text.tsx';
import { Badge } from '../../components/staff-table.tsx';
import { BackLink } from '../../components/ui/back-link.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';
import { ClassIdSelect, FilterForm, SelectField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatList, formatNumber, isolate } from '../../lib/format.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { myClassesQuery } from '../classes/my-classes-query.ts';
import { classAssignmentsPath, editAssignmentPath, ASSIGNMENTS_PATH } from './assignment-paths.ts';
import { assignmentQueries } from './assignment-queries.ts';
import {
  HAND_IN_FILTER_LABELS,
  HAND_IN_FILTERS,
  HAND_IN_STATUS_LABELS,
  handInStatusOf,
  isGradedLate,
  matchesHandInFilter,
} from './assignment-states.ts';
import { AssignmentBadges, AttachmentIcon, usePointsLabel } from './teacher-assignment-list.tsx';
import { LateBadge } from './late-badge.tsx';

// Load on the teacher's action (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION): a student chosen
// in the list, Duplicate or Delete.
const HandInPanel = lazy(async () => ({ default: (await import('./teacher-hand-in-panel.tsx')).HandInPanel }));
const DuplicateDialog = lazy(async () => ({
  default: (await import('./teacher-assignment-dialogs.tsx')).DuplicateDialog,
}));
const DeleteDialog = lazy(async () => ({ default: (await import('./teacher-assignment-dialogs.tsx')).DeleteDialog }));

const GRADING_FILTERS = z.object({
  class: z.catch(z.string(), ''),
  state: z.catch(z.enum(HAND_IN_FILTERS), 'all'),
  student: z.catch(z.string(), ''),
});

/** The assignment's instructions and attachments. */
function AssignmentDetails({ assignment }: { assignment: TeacherAssignment }) {
  const { t } = useLingui();
  return (
    <section
      aria-labelledby="assignment-details-heading"
      className={cn(cardVariants(), 'flex flex-col gap-4 p-4 sm:p-6')}
    >
      <h2 id="assignment-details-heading" className="text-lg font-semibold text-fg">
        {t`Instructions`}
      </h2>
      {assignment.instructions.trim() === '' ? (
        <p className="text-sm text-muted">{t`No instructions.`}</p>
      ) : (
        <MarkdownText source={assignment.instructions} />
      )}
      {assignment.attachments.length > 0 ? (
        <div>
          <h3 className="text-sm font-medium text-fg">{t`Attachments`}</h3>
          <ul className="mt-2 flex flex-col gap-1">
            {assignment.attachments.map((attachment) => (
              <li key={attachment._id} className="flex items-center gap-2 text-sm text-fg">
                <AttachmentIcon kind={attachment.kind} />
                {/* A video link, or a file from its address signed for the teacher (a PDF opens in
                    the browser's own viewer). */}
                {attachmentAddress(attachment) ? (
                  <a
                    href={attachmentAddress(attachment) ?? undefined}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="truncate text-brand-700 underline"
                  >
                    <bdi>{attachment.fileName}</bdi>
                    <span className="sr-only"> {t`(opens in a new tab)`}</span>
                  </a>
                ) : (
                  <bdi className="truncate">{attachment.fileName}</bdi>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** Where an attachment opens: a video link's address, or a file's signed address. */
const attachmentAddress = (attachment: TeacherAssignment['attachments'][number]) =>
  attachment.linkUrl ?? attachment.fileUrl;

/** One student in the grading list: a button that opens their hand-in. */
function HandInRowButton({ row, isOpen, onOpen }: { row: HandInRow; isOpen: boolean; onOpen(): void }) {
  const { i18n } = useLingui();
  const status = handInStatusOf(row);
  return (
    <li>
      <button
        type="button"
        aria-current={isOpen ? 'true' : undefined}
        onClick={onOpen}
        className={cn(
          'flex w-full flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-start hover:bg-surface-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500',
          isOpen && 'bg-brand-50',
        )}
      >
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium text-fg">{row.student.name}</span>
          <span className="block truncate text-xs text-muted" dir="ltr">
            {row.student.rollNumber}
          </span>
        </span>
        {row.points === null ? null : (
          <span className="text-sm font-semibold text-fg">
            {formatNumber(row.points, { maximumFractionDigits: 2 })}
          </span>
        )}
        <Badge
          tone={
            status === 'missing' || status === 'late'
              ? 'warning'
              : status === 'handed-in'
                ? 'brand'
                : status === 'returned'
                  ? 'success'
                  : 'neutral'
          }
        >
          {i18n._(HAND_IN_STATUS_LABELS[status])}
        </Badge>
        {isGradedLate(row) ? <LateBadge /> : null}
      </button>
    </li>
  );
}

/** The hand-ins of one class: every student with their state, filtered, and the open one beside them. */
function Grading({ assignment }: { assignment: TeacherAssignment }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { filters, setFilter } = useUrlFilters(GRADING_FILTERS);
  const mine = useQuery(myClassesQuery());
  // The caller grades the classes of it they teach (decision 058).
  const taught = mine.data
    ? assignment.classes.filter((entry) => mine.data.some((own) => own._id === entry._id))
    : assignment.classes;
  const classId = (taught.some((entry) => entry._id === filters.class) ? filters.class : taught[0]?._id) ?? '';
  const list = usePagedList({ ...assignmentQueries.handIns(assignment._id, classId), enabled: classId !== '' });
  const rows = list.items.filter((row) => matchesHandInFilter(row, filters.state));
  const gradedCount = list.items.filter((row) => row.state === 'graded').length;
  const [pending, setPending] = useState<PendingChange | null>(null);
  // A student chosen in the list (not named by the address at load): the panel takes the focus.
  const [isChosenHere, setIsChosenHere] = useState(false);

  const className = isolate(taught.find((entry) => entry._id === classId)?.name ?? '');
  const askReturnAll = () =>
    setPending({
      title: t`Return every graded hand-in of ${className}?`,
      description: plural(gradedCount, {
        one: 'One student will see their points and feedback. You can still change a grade afterwards.',
        other: '# students will see their points and feedback. You can still change a grade afterwards.',
      }),
      confirmLabel: t`Return all`,
      run: () =>
        void (async () => {
          try {
            const { data } = await call(returnAllHandIns, { params: { id: assignment._id }, body: { classId } });
            const returned = formatNumber(data.returned);
            toast.success(t`Returned: ${returned}`);
          } catch (error) {
            toast.error(error instanceof Error ? error.message : t`Something went wrong`);
          } finally {
            await queryClient.invalidateQueries({ queryKey: assignmentQueries.all });
          }
        })(),
    });

  return (
    <section aria-labelledby="hand-ins-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="hand-ins-heading" className="text-lg font-semibold text-fg">
          {t`Hand-ins`}
        </h2>
        <Button variant="secondary" disabled={gradedCount === 0} onClick={askReturnAll}>
          <Send className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          {t`Return all graded`}
        </Button>
      </div>
      <FilterForm
        label={t`Filter hand-ins`}
        className="grid gap-3 sm:grid-cols-2 lg:max-w-2xl"
        onApply={() => undefined}
      >
        <ClassIdSelect value={classId} classes={taught} onChange={(value) => setFilter('class', value)} />
        <SelectField
          label={t`State`}
          value={filters.state}
          onChange={(value) => setFilter('state', value)}
          options={HAND_IN_FILTERS.map((filter) => ({ value: filter, label: i18n._(HAND_IN_FILTER_LABELS[filter]) }))}
        />
      </FilterForm>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0">
          {list.isPending ? (
            <LoadingStatus>{t`Loading the hand-ins…`}</LoadingStatus>
          ) : list.isError && list.items.length === 0 ? (
            <LoadFailure
              title={t`The hand-ins could not be loaded.`}
              message={list.error.message}
              onRetry={() => void list.refetch()}
            />
          ) : rows.length === 0 ? (
            <EmptyState title={list.items.length === 0 ? t`No students in this class` : t`No student in this state`} />
          ) : (
            <ul aria-label={t`Students`} className={cn(cardVariants(), 'divide-y divide-line overflow-hidden')}>
              {rows.map((row) => (
                <HandInRowButton
                  key={row.student._id}
                  row={row}
                  isOpen={row.student._id === filters.student}
                  onOpen={() => {
                    setFilter('student', row.student._id);
                    setIsChosenHere(true);
                  }}
                />
              ))}
            </ul>
          )}
          <LoadMoreButton list={list} className="mt-4" />
        </div>
        {filters.student ? (
          <Suspense fallback={<LoadingStatus>{t`Loading the hand-in…`}</LoadingStatus>}>
            <HandInPanel
              key={filters.student}
              assignment={assignment}
              studentId={filters.student}
              isFocusedOnOpen={isChosenHere}
            />
          </Suspense>
        ) : (
          <p className="hidden text-sm text-muted lg:block">{t`Choose a student to read their hand-in and grade it.`}</p>
        )}
      </div>
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </section>
  );
}

function AssignmentScreen({ assignment, now }: { assignment: TeacherAssignment; now: number }) {
  const { t } = useLingui();
  const pointsLabel = usePointsLabel();
  const [dialog, setDialog] = useState<'duplicate' | 'delete' | null>(null);
  const dueAt = assignment.dueAt;
  // Each name isolated: "10-A التاريخ" in an Arabic list kept its order only inside its own run.
  const classNames = formatList(assignment.classes.map((entry) => isolate(entry.name)));
  const toGrade = formatNumber(assignment.handIns.toGrade);
  const handedIn = formatNumber(assignment.handIns.handedIn);
  return (
    <>
      <PageHeader
        className="mt-3"
        title={assignment.title}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>
              {classNames} · {pointsLabel(assignment.points)}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <CalendarClock className="size-4" aria-hidden="true" />
              {dueAt ? (
                <Trans>
                  Due <time dateTime={dueAt}>{formatDateTime(dueAt)}</time>
                </Trans>
              ) : (
                t`No due date`
              )}
              {dueAt && !assignment.acceptLate ? ` · ${t`late work refused`}` : ''}
            </span>
          </span>
        }
        actions={
          assignment.isOwner ? (
            <>
              {assignment.archived ? null : (
                <Link to={editAssignmentPath(assignment._id)} className={buttonVariants({ variant: 'secondary' })}>
                  <Pencil className="size-4" aria-hidden="true" />
                  {t`Edit`}
                </Link>
              )}
              <Button variant="secondary" onClick={() => setDialog('duplicate')}>
                <Copy className="size-4" aria-hidden="true" />
                {t`Duplicate`}
              </Button>
              {assignment.archived ? null : (
                <Button variant="secondary" onClick={() => setDialog('delete')}>
                  <Trash2 className="size-4" aria-hidden="true" />
                  {t`Delete`}
                </Button>
              )}
            </>
          ) : null
        }
      />
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted">
        <AssignmentBadges assignment={assignment} now={now} />
        <span>
          <Trans>
            Handed in: {handedIn} · To grade: {toGrade}
          </Trans>
        </span>
      </div>
      <div className="mt-6 flex flex-col gap-8">
        <AssignmentDetails assignment={assignment} />
        <Grading assignment={assignment} />
      </div>
      <Suspense fallback={null}>
        {dialog === 'duplicate' ? <DuplicateDialog assignment={assignment} onClose={() => setDialog(null)} /> : null}
        {dialog === 'delete' ? <DeleteDialog assignment={assignment} onClose={() => setDialog(null)} /> : null}
      </Suspense>
    </>
  );
}

/**
 * /dashboard/teacher/assignments/:id (decision 063): one assignment, its instructions, and the
 * grading view: every student of the chosen class with their state, filtered by state, and the
 * open hand-in with its grade form beside the list (under it on a phone).
 */
export function Component() {
  const { id = '' } = useParams();
  const { t } = useLingui();
  const assignment = useQuery(assignmentQueries.detail(id));
  const title = assignment.data?.title;
  const pageTitle = (title: string) => t`${title} · Assignments`;
  const firstClass = assignment.data?.classes[0]?._id;
  return (
    <div className="mx-auto w-full max-w-6xl pb-16">
      <PageTitle>{title ? pageTitle(isolate(title)) : t`Assignment`}</PageTitle>
      <BackLink
        to={firstClass ? classAssignmentsPath(firstClass) : ASSIGNMENTS_PATH}
      >{t`Back to assignments`}</BackLink>
      {assignment.isPending ? (
        <LoadingStatus className="mt-4">{t`Loading the assignment…`}</LoadingStatus>
      ) : assignment.isError ? (
        <LoadFailure
          className="mt-4"
          title={t`The assignment could not be loaded.`}
          message={assignment.error.message}
          onRetry={() => void assignment.refetch()}
        />
      ) : (
        <AssignmentScreen assignment={assignment.data} now={assignment.dataUpdatedAt} />
      )}
    </div>
  );
}
