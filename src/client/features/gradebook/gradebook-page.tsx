import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import toast from 'react-hot-toast/headless';
import { z } from 'zod/mini';
import { listGradebookRows } from '#shared/contract/gradebook';
import {
  GRADEBOOK_LIMITS,
  GRADEBOOK_SORTS,
  type GradebookColumns,
  type GradebookItem,
  type GradebookRow,
} from '#shared/gradebook';
import { csvBlob, csvFileName, toCsv } from '#shared/roster-import';
import { BackLink } from '../../components/ui/back-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { FilterForm, SearchField, SelectField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus, Spinner } from '../../components/ui/spinner.tsx';
import { STACKED_TABLE } from '../../components/ui/stacked-table.ts';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { downloadBlob } from '../../lib/download-file.ts';
import { formatDay, formatPercent, isolate } from '../../lib/format.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { classPath } from '../classes/class-paths.ts';
import { myClassesQuery } from '../classes/my-classes-query.ts';
import { CELL_STATE_WORDS, formatPoints, GradeCell } from './grade-cell.tsx';
import { gradebookQueries, type GradebookFilters } from './gradebook-queries.ts';
import { RollNumber } from '../../components/ui/roll-number.tsx';

const GRADEBOOK_FILTERS = z.object({
  sort: z.catch(z.enum(GRADEBOOK_SORTS), 'name'),
  order: z.catch(z.enum(['asc', 'desc']), 'asc'),
  search: z.catch(
    z.pipe(
      z.optional(z.string().check(z.trim(), z.maxLength(GRADEBOOK_LIMITS.search))),
      z.transform((value) => value ?? ''),
    ),
    '',
  ),
  missing: z.catch(
    z.pipe(
      z.optional(z.enum(['true', ''])),
      z.transform((value) => value ?? ''),
    ),
    '',
  ),
});

/** The column's heading: the item's title, what it is out of, its due day. */
function ItemHeading({ item }: { item: GradebookItem }) {
  const { t } = useLingui();
  return (
    <span className="flex flex-col gap-0.5">
      <span className="line-clamp-2 font-semibold text-fg">{item.title}</span>
      <span className="font-normal">
        {item.kind === 'quiz' ? t`Quiz` : t`Assignment`}
        {item.points === null ? (
          ` · ${t`ungraded`}`
        ) : (
          <>
            {' '}
            · <bdi>{formatPoints(item.points)}</bdi>
          </>
        )}
      </span>
      {item.dueAt ? <span className="font-normal">{formatDay(item.dueAt)}</span> : null}
    </span>
  );
}

const AverageText = ({ row }: { row: Pick<GradebookRow, 'average'> }) =>
  row.average === null ? <span className="text-muted">—</span> : <bdi>{formatPercent(row.average)}</bdi>;

/** Every row of the class, page after page, as the reader's CSV: headers and states in their language. */
function useCsvExport(classId: string, className: string, columns: GradebookColumns | undefined) {
  const { t } = useLingui();
  const [isExporting, setIsExporting] = useState(false);
  const run = async () => {
    if (!columns) return;
    setIsExporting(true);
    try {
      const rows: GradebookRow[] = [];
      for (let offset = 0; ; offset += GRADEBOOK_LIMITS.pageSizeMax) {
        const answer = await call(listGradebookRows, {
          params: { id: classId },
          query: { columns: columns.key, offset, limit: GRADEBOOK_LIMITS.pageSizeMax },
        });
        rows.push(...answer.data);
        if (!answer.page?.hasMore) break;
      }
      const header = [
        t`Name`,
        t`Roll number`,
        t`Average (%)`,
        t`Missing`,
        ...columns.items.map((item) => (item.points === null ? item.title : `${item.title} (${item.points})`)),
      ];
      const lines = rows.map((row) => [
        row.name,
        row.rollNumber,
        row.average === null ? '' : String(row.average),
        String(row.missing),
        ...row.cells.map((cell) => (cell.points === null ? t(CELL_STATE_WORDS[cell.state]) : String(cell.points))),
      ]);
      downloadBlob(
        csvBlob(toCsv(header, lines)),
        csvFileName(
          className,
          t({ comment: 'Part of a file name: a class gradebook export, no spaces', message: 'gradebook' }),
        ),
      );
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : t`The gradebook could not be exported.`);
    } finally {
      setIsExporting(false);
    }
  };
  return { run, isExporting };
}

/**
 * /dashboard/teacher/classes/:id/gradebook (issue 33 point 4, decision 062): the class's students ×
 * its quizzes and assignments, sorted and filtered by the server, paged, downloadable as CSV.
 */
export function Component() {
  const { id = '' } = useParams();
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const classes = useQuery(myClassesQuery());
  const className = classes.data?.find((entry) => entry._id === id)?.name ?? '';
  const columns = useQuery(gradebookQueries.columns(id));
  const { filters, setFilter, textInput, applyTexts } = useUrlFilters(GRADEBOOK_FILTERS, { text: ['search'] });
  const list = usePagedList({
    ...gradebookQueries.rows(id, columns.data?.key ?? '', filters as GradebookFilters),
    enabled: columns.data !== undefined,
  });
  const csv = useCsvExport(id, className, columns.data);
  // The columns changed under the rows (an item added or removed): read them again, then the rows.
  const isStale = list.error instanceof ApiError && list.error.code === 'GRADEBOOK_CHANGED';
  useEffect(() => {
    if (isStale) void queryClient.invalidateQueries({ queryKey: gradebookQueries.columns(id).queryKey });
  }, [isStale, id, queryClient]);

  const title = t`Gradebook`;
  const classTitle = (className: string) => t`${className} · Gradebook`;
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 pb-16">
      <PageTitle>{className ? classTitle(isolate(className)) : title}</PageTitle>
      <BackLink to={classPath(id)} className="self-start">
        {t`Back to the class`}
      </BackLink>
      <PageHeader
        className="-mt-4"
        title={
          className ? (
            <Trans>
              Gradebook of <bdi>{className}</bdi>
            </Trans>
          ) : (
            title
          )
        }
        description={t`Scores of every quiz and assignment. The average weighs each item by its points and counts only what students can see.`}
        actions={
          <Button variant="secondary" onClick={() => void csv.run()} disabled={csv.isExporting || !columns.data}>
            <Download className="size-4" aria-hidden="true" />
            {t`Download CSV`}
          </Button>
        }
      />
      <FilterForm
        label={t`Filter the gradebook`}
        className="grid gap-3 sm:grid-cols-[1fr_minmax(9rem,12rem)_minmax(9rem,12rem)] lg:grid-cols-[1fr_12rem_12rem_auto] lg:items-end"
        onApply={applyTexts}
      >
        <SearchField
          label={t`Search`}
          {...textInput('search')}
          maxLength={GRADEBOOK_LIMITS.search}
          placeholder={t`Name or roll number`}
        />
        <SelectField
          label={t`Sort by`}
          value={filters.sort}
          onChange={(value) => setFilter('sort', value)}
          options={[
            { value: 'name', label: t`Name` },
            { value: 'roll-number', label: t`Roll number` },
            { value: 'average', label: t`Average` },
          ]}
        />
        <SelectField
          label={t`Order`}
          value={filters.order}
          onChange={(value) => setFilter('order', value)}
          options={[
            { value: 'asc', label: filters.sort === 'average' ? t`Lowest first` : t`A to Z` },
            { value: 'desc', label: filters.sort === 'average' ? t`Highest first` : t`Z to A` },
          ]}
        />
        <label className="flex min-h-10 items-center gap-2 text-sm font-semibold text-fg">
          <input
            type="checkbox"
            className="size-4"
            checked={filters.missing === 'true'}
            onChange={(event) => setFilter('missing', event.target.checked ? 'true' : '')}
          />
          {t`Only students with missing work`}
        </label>
      </FilterForm>

      {columns.isPending || (list.isPending && !isStale) ? (
        <LoadingStatus>{t`Loading the gradebook…`}</LoadingStatus>
      ) : columns.isError ? (
        <LoadFailure
          title={t`The gradebook could not be loaded.`}
          message={columns.error.message}
          onRetry={() => void columns.refetch()}
        />
      ) : list.isError && list.items.length === 0 && !isStale ? (
        <LoadFailure
          title={t`The gradebook could not be loaded.`}
          message={list.error.message}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <>
          <div role="status">
            {list.isPlaceholderData ? (
              <p className="flex min-h-6 items-center gap-2 text-sm text-muted">
                <Spinner className="size-4" /> {t`Searching…`}
              </p>
            ) : list.items.length === 0 ? (
              <EmptyState title={t`No students found`} hint={t`Try another search, or show every student.`} />
            ) : (
              <p className="text-sm text-muted">
                {list.hasNextPage
                  ? plural(list.items.length, {
                      one: '# student shown; more below',
                      other: '# students shown; more below',
                    })
                  : plural(list.items.length, { one: '# student shown', other: '# students shown' })}
              </p>
            )}
          </div>
          {list.items.length > 0 ? <GradebookTable items={columns.data.items} rows={list.items} /> : null}
          <LoadMoreButton list={list} />
        </>
      )}
    </div>
  );
}

const HEAD = 'px-3 py-2 text-start align-bottom text-xs text-muted';
const CELL = 'px-3 py-2 align-top';
// The student's column stays in view while the items scroll sideways (desktop).
const STICKY = 'sm:sticky sm:start-0 sm:z-10 sm:bg-surface';
// On a phone an item's line gives its title the card's width, two lines at most, and its score the
// end: a narrow label column wrapped long titles into five lines, a class's cards to 14,000 px.
const ITEM_LINE = cn(
  STACKED_TABLE.lineLabel,
  'max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:before:line-clamp-2 max-sm:before:w-auto max-sm:before:min-w-0 max-sm:before:flex-1 max-sm:before:shrink',
);

function GradebookTable({ items, rows }: { items: GradebookItem[]; rows: GradebookRow[] }) {
  const { t } = useLingui();
  const averageLabel = t`Average`;
  const missingLabel = t`Missing`;
  return (
    <div className={cn(cardVariants(), 'max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none sm:overflow-x-auto')}>
      <table className={cn('w-full border-collapse text-sm', STACKED_TABLE.table)}>
        <caption className="sr-only">{t`Students and their scores, one column per quiz or assignment`}</caption>
        <thead className={STACKED_TABLE.head}>
          <tr className="border-b border-line">
            <th scope="col" className={cn(HEAD, STICKY, 'min-w-48 font-semibold')}>
              {t`Student`}
            </th>
            <th scope="col" className={cn(HEAD, 'font-semibold')}>
              {averageLabel}
            </th>
            <th scope="col" className={cn(HEAD, 'font-semibold')}>
              {missingLabel}
            </th>
            {items.map((item) => (
              <th key={item._id} scope="col" className={cn(HEAD, 'min-w-32 font-normal')}>
                <ItemHeading item={item} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED_TABLE.body}>
          {rows.map((row) => (
            <tr
              key={row._id}
              className={cn(
                'border-b border-line last:border-0',
                STACKED_TABLE.row,
                'max-sm:mb-3 max-sm:rounded-xl max-sm:border max-sm:bg-surface max-sm:px-4 max-sm:shadow-sm',
              )}
            >
              <th scope="row" className={cn(CELL, STICKY, 'text-start font-semibold text-fg', STACKED_TABLE.heading)}>
                <span className="block">{row.name}</span>
                <span className="block text-xs font-normal text-muted">
                  <RollNumber value={row.rollNumber} />
                </span>
              </th>
              <td className={cn(CELL, 'font-semibold', STACKED_TABLE.line)} data-label={averageLabel}>
                <AverageText row={row} />
              </td>
              <td
                className={cn(CELL, row.missing > 0 && 'font-semibold text-danger', STACKED_TABLE.line)}
                data-label={missingLabel}
              >
                <bdi>{row.missing}</bdi>
              </td>
              {row.cells.map((cell, index) => (
                <td key={items[index]?._id ?? index} className={cn(CELL, ITEM_LINE)} data-label={items[index]?.title}>
                  <GradeCell cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
