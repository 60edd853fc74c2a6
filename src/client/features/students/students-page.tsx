import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { UserPlus } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { listStudents } from '#shared/contract/students';
import { formatAccuracy } from '#shared/accuracy';
import { STUDENT_LIST_LIMITS, type StudentListEntry } from '#shared/students';
import { buttonVariants } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus, Spinner } from '../../components/ui/spinner.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useQuery } from '@tanstack/react-query';
import { classQueries } from '../classes/classes-queries.ts';
import { studentQueries } from './students-queries.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { ClassIdSelect, FilterForm, SearchField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { LoadFailure } from '../../components/ui/status-cards.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { textFilter, useUrlFilters } from '../../lib/url-filters.ts';
import { z } from 'zod/mini';
import { StudentActionDialog, StudentActions, type StudentAction } from './student-actions.tsx';
import { RollNumber } from '../../components/ui/roll-number.tsx';

const STUDENT_FILTERS = z.object({
  classId: textFilter(listStudents.query.shape.classId),
  search: textFilter(listStudents.query.shape.search),
});

/**
 * /dashboard/teacher/students (SPEC §2): the students of the teacher's classes,
 * by name (issue 19 point 6); a class filter and a name / account-username
 * search, both applied by the server. The filters live in the address, so a
 * reload keeps them.
 */
export function Component() {
  // The search reaches the server once typing pauses.
  const { filters, setFilter, textInput, applyTexts } = useUrlFilters(STUDENT_FILTERS, { text: ['search'] });
  const classId = filters.classId;
  // The caller's classes (by id), as the classes screen lists them.
  const classes = useQuery(classQueries.mine());
  const list = usePagedList(studentQueries.list(filters));
  // The student a dialog is open for (decision 033): edit the details, or reset the password.
  const [managing, setManaging] = useState<{ action: StudentAction; student: StudentListEntry } | null>(null);
  const actOn = (action: StudentAction, student: StudentListEntry) => setManaging({ action, student });

  const isFiltered = Boolean(classId || filters.search);
  const { t } = useLingui();
  const count = list.items.length;

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageTitle>{t`Students`}</PageTitle>
      <PageHeader
        title={t`Students`}
        description={t`The students of your classes, by name.`}
        actions={
          <Link to="/dashboard/teacher/students/add" className={buttonVariants()}>
            <UserPlus className="size-4" aria-hidden="true" />
            {t`Add student`}
          </Link>
        }
      />

      <FilterForm
        label={t`Filter students`}
        className="mt-6 grid gap-3 sm:grid-cols-[minmax(10rem,16rem)_1fr]"
        onApply={applyTexts}
      >
        <ClassIdSelect
          value={classId}
          classes={classes.data ?? []}
          allLabel={t`All classes`}
          onChange={(value) => setFilter('classId', value)}
        />
        <SearchField
          label={t`Search`}
          {...textInput('search')}
          maxLength={STUDENT_LIST_LIMITS.search}
          placeholder={t`Name or account username`}
        />
      </FilterForm>

      <div className="mt-6">
        {list.isPending ? (
          <LoadingStatus>{t`Loading students…`}</LoadingStatus>
        ) : list.isError && list.items.length === 0 ? (
          <LoadFailure
            title={t`The students could not be loaded.`}
            message={list.error.message}
            onRetry={() => void list.refetch()}
          />
        ) : (
          <>
            {/* One live region: the count, the search in progress, or the empty state is announced. */}
            <div role="status" className="mb-3">
              {list.isPlaceholderData ? (
                <p className="flex min-h-6 items-center gap-2 text-sm text-muted">
                  <Spinner className="size-4" /> {t`Searching…`}
                </p>
              ) : list.items.length === 0 ? (
                <EmptyState isFiltered={isFiltered} />
              ) : (
                <p className="flex min-h-6 items-center text-sm text-muted">
                  {list.hasNextPage
                    ? plural(count, { one: '# student shown; more below', other: '# students shown; more below' })
                    : plural(count, { one: '# student shown', other: '# students shown' })}
                </p>
              )}
            </div>
            {list.items.length > 0 ? (
              // The table needs about 62rem; the space left beside the side menu decides, not the window.
              <div className="@container">
                <StudentTable students={list.items} onAction={actOn} />
                <StudentCards students={list.items} onAction={actOn} />
              </div>
            ) : null}
            <LoadMoreButton list={list} />
          </>
        )}
      </div>
      {managing ? (
        <StudentActionDialog action={managing.action} student={managing.student} onClose={() => setManaging(null)} />
      ) : null}
    </div>
  );
}

type OnAction = (action: StudentAction, student: StudentListEntry) => void;

function EmptyState({ isFiltered }: { isFiltered: boolean }) {
  const { t } = useLingui();
  return (
    <div className="rounded-xl border border-dashed border-line-strong bg-surface p-8 text-center text-muted">
      {isFiltered ? (
        <>
          <p className="font-semibold text-fg">{t`No students found`}</p>
          <p className="mt-1 text-sm">{t`Try another class or search.`}</p>
        </>
      ) : (
        <>
          <p className="font-semibold text-fg">{t`No students yet`}</p>
          <p className="mt-1 text-sm">
            <Trans>
              <Link to="/dashboard/teacher/students/add" className="font-semibold text-brand-700 underline">
                Add the first student
              </Link>{' '}
              or let students register themselves.
            </Trans>
          </p>
        </>
      )}
    </div>
  );
}

/**
 * An average (SPEC §4: whole, else two decimals; accuracy as the locale writes a percentage), or a
 * dash for a student who has not attempted a quiz yet.
 */
function Average({
  student,
  value,
  isPercent = false,
}: {
  student: StudentListEntry;
  value: number;
  isPercent?: boolean;
}) {
  const { t } = useLingui();
  if (student.quizzesAttempted === 0) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">
          {t({ comment: 'An average of a student who has attempted no quiz', message: 'none yet' })}
        </span>
      </>
    );
  }
  if (isPercent) return <>{formatPercent(value)}</>;
  const rounded = Number(formatAccuracy(value));
  return (
    <>{formatNumber(rounded, { minimumFractionDigits: Number.isInteger(rounded) ? 0 : 2, maximumFractionDigits: 2 })}</>
  );
}

const HEADER_CELL = 'px-2.5 py-3 first:ps-4 last:pe-4 text-start align-bottom text-xs font-semibold text-muted';
const CELL = 'px-2.5 py-3 align-top first:ps-4 last:pe-4';

/** Wide content areas: one row per student. */
function StudentTable({ students, onAction }: { students: StudentListEntry[]; onAction: OnAction }) {
  const { t } = useLingui();
  return (
    <div className={cn(cardVariants(), 'hidden overflow-hidden @[62rem]:block')}>
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{t`Students of your classes, by name`}</caption>
        <colgroup>
          <col className="w-[13%]" />
          <col className="w-[11%]" />
          <col className="w-[7%]" />
          <col className="w-[20%]" />
          <col className="w-[18%]" />
          <col className="w-[6%]" />
          <col className="w-[7%]" />
          <col className="w-[6%]" />
          <col className="w-[12%]" />
        </colgroup>
        <thead className="border-b border-line bg-surface-sunken">
          <tr>
            <th scope="col" className={HEADER_CELL}>
              {t`Name`}
            </th>
            <th scope="col" className={HEADER_CELL}>
              {t`Account username`}
            </th>
            <th scope="col" className={HEADER_CELL}>
              {t`Class`}
            </th>
            <th scope="col" className={HEADER_CELL}>
              {t`Email`}
            </th>
            <th scope="col" className={HEADER_CELL}>
              {t`Parent`}
            </th>
            <th scope="col" className={`${HEADER_CELL} text-end`}>
              {t({ comment: 'Table header, short for average score', message: 'Avg. score' })}
            </th>
            <th scope="col" className={`${HEADER_CELL} text-end`}>
              {t({ comment: 'Table header, short for average accuracy', message: 'Avg. accuracy' })}
            </th>
            <th scope="col" className={`${HEADER_CELL} text-end`}>
              {t({ comment: 'Table header: quizzes attempted', message: 'Quizzes' })}
            </th>
            <th scope="col" className={HEADER_CELL}>
              {t`Actions`}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {students.map((student) => (
            <tr key={student._id} className="hover:bg-surface-sunken">
              <th scope="row" className={`${CELL} text-start font-semibold wrap-anywhere text-fg`}>
                {student.name}
              </th>
              <td className={`${CELL} wrap-anywhere text-fg`}>
                <RollNumber value={student.rollNumber} />
              </td>
              <td className={`${CELL} wrap-break-word text-fg`}>{student.class}</td>
              <td className={`${CELL} wrap-anywhere text-fg`}>{student.email}</td>
              <td className={`${CELL} wrap-anywhere text-fg`}>
                {student.parentName}
                <span className="block text-xs text-muted">{student.parentEmail}</span>
              </td>
              <td className={`${CELL} text-end text-fg tabular-nums`}>
                <Average student={student} value={student.averageScore} />
              </td>
              <td className={`${CELL} text-end text-fg tabular-nums`}>
                <Average student={student} value={student.averageAccuracy} isPercent />
              </td>
              <td className={`${CELL} text-end text-fg tabular-nums`}>{formatNumber(student.quizzesAttempted)}</td>
              <td className={CELL}>
                <StudentActions student={student} onAction={onAction} className="flex flex-col items-start gap-1.5" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Fact({ label, children, isWide = false }: { label: string; children: ReactNode; isWide?: boolean }) {
  return (
    <div className={`min-w-0 ${isWide ? 'col-span-2' : ''}`}>
      <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</dt>
      <dd className="wrap-anywhere text-fg">{children}</dd>
    </div>
  );
}

/** Narrower content areas: one card per student. */
function StudentCards({ students, onAction }: { students: StudentListEntry[]; onAction: OnAction }) {
  const { t } = useLingui();
  return (
    <ul className="grid gap-3 @xl:grid-cols-2 @4xl:grid-cols-3 @[62rem]:hidden">
      {students.map((student) => (
        <li key={student._id} className={cn(cardVariants(), 'min-w-0 p-4')}>
          <h2 className="text-base font-semibold wrap-anywhere text-fg">{student.name}</h2>
          <p className="font-mono text-xs wrap-anywhere text-muted">
            <span className="sr-only">{t`Account username:`} </span>
            <RollNumber value={student.rollNumber} />
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            <Fact label={t`Class`}>{student.class}</Fact>
            <Fact label={t`Quizzes attempted`}>{formatNumber(student.quizzesAttempted)}</Fact>
            <Fact label={t`Email`} isWide>
              {student.email}
            </Fact>
            <Fact label={t`Parent`} isWide>
              {student.parentName}
              <span className="block text-xs text-muted">{student.parentEmail}</span>
            </Fact>
            <Fact label={t`Average score`}>
              <Average student={student} value={student.averageScore} />
            </Fact>
            <Fact label={t`Average accuracy`}>
              <Average student={student} value={student.averageAccuracy} isPercent />
            </Fact>
          </dl>
          <StudentActions student={student} onAction={onAction} className="mt-4 flex flex-wrap gap-2" />
        </li>
      ))}
    </ul>
  );
}
