import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, SlidersHorizontal, Star } from 'lucide-react';
import { useId, useState } from 'react';
import { FIELD_LIMITS } from '#shared/limits';
import { RESOURCE_TYPES, type Resource } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { FilterForm, SelectField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import {
  RESOURCE_SORTS,
  RESOURCE_TYPE_LABELS,
  STUDENT_RESOURCE_FILTERS,
  type ResourceSort,
  type ResourceView,
} from './resource-filters.ts';
import { EmptyState } from '../../components/ui/status-cards.tsx';
import { ListFailure, ResourceListStatus } from './resource-list-status.tsx';
import { RESOURCE_CARD_CLASSES, ResourceDetails, ResourceName, ResourceSearchField } from './resource-parts.tsx';
import { ResourceMedia } from './resource-viewer.tsx';
import { resourceQueries, useStarResource } from './resources-queries.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { useProfile } from '../session/profile.ts';

const VIEWS: { value: ResourceView; label: MessageDescriptor }[] = [
  { value: 'all', label: msg({ comment: 'Shows all resources', message: 'All' }) },
  { value: 'starred', label: msg({ comment: 'Shows the starred resources', message: 'Starred' }) },
];

/**
 * /dashboard/student/resources, 'Resources' (SPEC §2): the library of the
 * student's class. All or Starred, a search in names and descriptions, a
 * subject, a type and a sort, all applied by the server and kept in the address.
 */
export function Component() {
  const { t, i18n } = useLingui();
  const student = useProfile('student');
  const className = student?.class;
  const { filters, setFilter, textInput, applyTexts } = useUrlFilters(STUDENT_RESOURCE_FILTERS, {
    text: ['search', 'subject'],
  });
  const subjectInput = textInput('subject');
  const list = usePagedList(resourceQueries.studentList(student?._id ?? '', filters));
  const ids = { list: useId(), moreFilters: useId() };
  const [areFiltersOpen, setAreFiltersOpen] = useState(false);
  const activeFilterCount = [filters.subject, filters.type].filter(Boolean).length;

  return (
    <div className="mx-auto w-full max-w-6xl pb-16">
      <PageTitle>{t`Resources`}</PageTitle>
      <PageHeader
        title={t`Resources`}
        description={
          className === undefined ? (
            t`Files and video lessons your teachers shared.`
          ) : (
            <Trans>
              Files and video lessons your teachers shared with <bdi>{className}</bdi>.
            </Trans>
          )
        }
        actions={
          <div
            role="group"
            aria-label={t({ comment: 'The group of the All and Starred buttons', message: 'Show' })}
            className="inline-flex rounded-lg border border-line-strong bg-surface p-1"
          >
            {VIEWS.map((view) => {
              const isChosen = filters.view === view.value;
              return (
                <button
                  key={view.value}
                  type="button"
                  aria-pressed={isChosen}
                  onClick={() => setFilter('view', view.value)}
                  className={`inline-flex items-center gap-1.5 rounded-md px-4 py-2 text-sm font-semibold transition-colors ${
                    isChosen ? 'bg-brand-600 text-white' : 'text-muted hover:bg-surface-muted'
                  }`}
                >
                  {view.value === 'starred' ? <Star className="size-4" aria-hidden="true" /> : null}
                  {i18n._(view.label)}
                </button>
              );
            })}
          </div>
        }
      />

      <FilterForm
        label={t`Filter resources`}
        className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)]"
        onApply={applyTexts}
      >
        <ResourceSearchField {...textInput('search')} />
        {/* On a phone the other filters wait behind a disclosure, so the list starts on the first screen. */}
        <Button
          variant="secondary"
          className="justify-self-start sm:hidden"
          aria-expanded={areFiltersOpen}
          aria-controls={ids.moreFilters}
          onClick={() => setAreFiltersOpen(!areFiltersOpen)}
        >
          <SlidersHorizontal className="size-4" aria-hidden="true" />
          <Trans>Filters</Trans>
          {activeFilterCount > 0 ? <span className="text-muted">({formatNumber(activeFilterCount)})</span> : null}
          <ChevronDown
            className={cn('size-4 transition-transform', areFiltersOpen && 'rotate-180')}
            aria-hidden="true"
          />
        </Button>
        <div id={ids.moreFilters} className={cn('gap-3 sm:contents', areFiltersOpen ? 'grid' : 'hidden')}>
          <TextField
            label={t`Subject`}
            type="text"
            value={subjectInput.value}
            onChange={(event) => subjectInput.onChange(event.target.value)}
            maxLength={FIELD_LIMITS.subject}
            placeholder={t`Any subject`}
            autoComplete="off"
          />
          <SelectField
            label={t({ comment: 'The type of a resource: documents, images, videos', message: 'Type' })}
            value={filters.type}
            onChange={(value) => setFilter('type', value)}
            options={[
              { value: '', label: t`All types` },
              ...RESOURCE_TYPES.map((type) => ({ value: type, label: i18n._(RESOURCE_TYPE_LABELS[type]) })),
            ]}
          />
          <SelectField
            label={t`Sort by`}
            value={filters.sort}
            onChange={(value) => setFilter('sort', value)}
            options={(Object.keys(RESOURCE_SORTS) as ResourceSort[]).map((sort) => ({
              value: sort,
              label: i18n._(RESOURCE_SORTS[sort].label),
            }))}
          />
        </div>
        {/* Enter in a text box submits the form; the button is for completeness, not shown. */}
        <button type="submit" className="sr-only" tabIndex={-1}>
          <Trans>Apply filters</Trans>
        </button>
      </FilterForm>

      <section aria-labelledby={ids.list} className="@container mt-6">
        <h2 id={ids.list} className="sr-only">
          {filters.view === 'starred' ? <Trans>Starred resources</Trans> : <Trans>All resources</Trans>}
        </h2>
        {list.isPending ? (
          <LoadingStatus>
            <Trans>Loading resources…</Trans>
          </LoadingStatus>
        ) : list.isError && list.items.length === 0 ? (
          <ListFailure
            title={t`The resources could not be loaded.`}
            message={list.error.message}
            onRetry={() => void list.refetch()}
          />
        ) : (
          <>
            <ResourceListStatus
              list={{ ...list, count: list.items.length }}
              empty={<EmptyState title={t`No resources found`} hint={t`Try adjusting your filters or search.`} />}
            />
            {list.items.length > 0 ? (
              <ul aria-labelledby={ids.list} className="grid items-start gap-3 @3xl:grid-cols-2">
                {list.items.map((resource) => (
                  <StudentResourceItem key={resource._id} resource={resource} />
                ))}
              </ul>
            ) : null}
            <LoadMoreButton list={list} />
          </>
        )}
      </section>
    </div>
  );
}

function StudentResourceItem({ resource }: { resource: Resource }) {
  return (
    <li className={RESOURCE_CARD_CLASSES}>
      <div className="flex items-start justify-between gap-3">
        <ResourceName resource={resource} />
        <StarButton resource={resource} />
      </div>
      <ResourceDetails resource={resource} />
      <ResourceMedia resource={resource} />
    </li>
  );
}

/** SPEC §4 Starring: the button says what it will do; aria-pressed says what is. */
/** A star is drawn gold, as stars are: a picture's colour, not a theme colour (decision 027). */
const STARRED_ICON = 'fill-amber-400 text-amber-600';

function StarButton({ resource }: { resource: Resource }) {
  const star = useStarResource();
  const { fileName } = resource;
  return (
    <button
      type="button"
      aria-pressed={resource.isStarred}
      aria-busy={star.isPending || undefined}
      onClick={() => {
        if (!star.isPending) star.mutate({ resource });
      }}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-lg border px-3 py-1.5 text-sm font-semibold transition-colors ${
        resource.isStarred
          ? 'border-accent-500 bg-accent-50 text-fg hover:bg-accent-100'
          : 'border-line-strong bg-surface text-muted hover:bg-surface-sunken'
      }`}
    >
      <Star className={`size-4 ${resource.isStarred ? STARRED_ICON : 'text-muted'}`} aria-hidden="true" />
      {resource.isStarred ? (
        <Trans comment="Takes the star off a resource">
          Unstar<span className="sr-only"> {fileName}</span>
        </Trans>
      ) : (
        <Trans comment="Marks a resource to find it again">
          Star<span className="sr-only"> {fileName}</span>
        </Trans>
      )}
    </button>
  );
}
