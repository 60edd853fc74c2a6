import { ChevronDown, SlidersHorizontal, Star } from 'lucide-react';
import { useId, useState } from 'react';
import { FIELD_LIMITS } from '#shared/limits';
import { RESOURCE_TYPE_LABELS, RESOURCE_TYPES, type Resource } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { FilterForm, SelectField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { RESOURCE_SORTS, STUDENT_RESOURCE_FILTERS, type ResourceSort, type ResourceView } from './resource-filters.ts';
import { EmptyState } from '../../components/ui/status-cards.tsx';
import { ListFailure, ResourceListStatus } from './resource-list-status.tsx';
import { RESOURCE_CARD_CLASSES, ResourceDetails, ResourceName, ResourceSearchField } from './resource-parts.tsx';
import { ResourceMedia } from './resource-viewer.tsx';
import { resourceQueries, useStarResource } from './resources-queries.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { useProfile } from '../session/profile.ts';

const VIEWS: { value: ResourceView; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'starred', label: 'Starred' },
];

/**
 * /dashboard/student/resources, 'Resources' (SPEC §2): the library of the
 * student's class. All or Starred, a search in names and descriptions, a
 * subject, a type and a sort, all applied by the server and kept in the address.
 */
export function Component() {
  const student = useProfile('student');
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
      <PageTitle>Resources</PageTitle>
      <PageHeader
        title="Resources"
        description={`Files and video lessons your teachers shared${student ? ` with ${student.class}` : ''}.`}
        actions={
          <div
            role="group"
            aria-label="Show"
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
                  {view.label}
                </button>
              );
            })}
          </div>
        }
      />

      <FilterForm
        label="Filter resources"
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
          Filters
          {activeFilterCount > 0 ? <span className="text-muted">({activeFilterCount})</span> : null}
          <ChevronDown
            className={cn('size-4 transition-transform', areFiltersOpen && 'rotate-180')}
            aria-hidden="true"
          />
        </Button>
        <div id={ids.moreFilters} className={cn('gap-3 sm:contents', areFiltersOpen ? 'grid' : 'hidden')}>
          <TextField
            label="Subject"
            type="text"
            value={subjectInput.value}
            onChange={(event) => subjectInput.onChange(event.target.value)}
            maxLength={FIELD_LIMITS.subject}
            placeholder="Any subject"
            autoComplete="off"
          />
          <SelectField
            label="Type"
            value={filters.type}
            onChange={(value) => setFilter('type', value)}
            options={[
              { value: '', label: 'All types' },
              ...RESOURCE_TYPES.map((type) => ({ value: type, label: RESOURCE_TYPE_LABELS[type] })),
            ]}
          />
          <SelectField
            label="Sort by"
            value={filters.sort}
            onChange={(value) => setFilter('sort', value)}
            options={(Object.keys(RESOURCE_SORTS) as ResourceSort[]).map((sort) => ({
              value: sort,
              label: RESOURCE_SORTS[sort].label,
            }))}
          />
        </div>
        {/* Enter in a text box submits the form; the button is for completeness, not shown. */}
        <button type="submit" className="sr-only" tabIndex={-1}>
          Apply filters
        </button>
      </FilterForm>

      <section aria-labelledby={ids.list} className="@container mt-6">
        <h2 id={ids.list} className="sr-only">
          {filters.view === 'starred' ? 'Starred resources' : 'All resources'}
        </h2>
        {list.isPending ? (
          <LoadingStatus>Loading resources…</LoadingStatus>
        ) : list.isError && list.items.length === 0 ? (
          <ListFailure what="The resources" message={list.error.message} onRetry={() => void list.refetch()} />
        ) : (
          <>
            <ResourceListStatus
              list={{ ...list, count: list.items.length }}
              empty={<EmptyState title="No resources found" hint="Try adjusting your filters or search." />}
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
  const action = resource.isStarred ? 'Unstar' : 'Star';
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
      {action}
      <span className="sr-only"> {resource.fileName}</span>
    </button>
  );
}
