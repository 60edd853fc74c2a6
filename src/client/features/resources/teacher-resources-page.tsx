import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronRight, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { Resource } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { FilterForm } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState } from '../../components/ui/status-cards.tsx';
import { ListFailure, ResourceListStatus } from './resource-list-status.tsx';
import { RESOURCE_CARD_CLASSES, ResourceDetails, ResourceName, ResourceSearchField } from './resource-parts.tsx';
import { ResourceMedia } from './resource-viewer.tsx';
import { resourceQueries } from './resources-queries.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { DeleteResourceDialog, EditResourceDialog } from './teacher-resource-dialogs.tsx';
import { UploadForm } from './upload-form.tsx';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { TEACHER_RESOURCE_FILTERS } from './resource-filters.ts';
import { useProfile } from '../session/profile.ts';
import { VideoLinkForm } from './video-link-form.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

const CARD = 'rounded-2xl border border-line bg-surface p-5 shadow-sm';

/**
 * /dashboard/teacher/resources (SPEC §2): the Upload Resource form (and a
 * video link as a second way to share) beside Uploaded Files, the teacher's
 * own resources from the server, searchable, with edit and delete.
 */
export function Component() {
  const { t } = useLingui();
  const teacher = useProfile('teacher');
  const { filters, textInput, applyTexts } = useUrlFilters(TEACHER_RESOURCE_FILTERS, { text: ['search'] });
  const list = usePagedList(resourceQueries.teacherList(teacher?._id ?? '', filters));
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const ids = { upload: useId(), link: useId(), list: useId() };

  return (
    // Room below the last form, so its buttons are not flush with the screen's edge.
    <div className="mx-auto w-full max-w-6xl pb-16">
      <PageTitle>{t`Resources`}</PageTitle>
      <PageHeader
        title={t`Resources`}
        description={t`Share files and video lessons with a class; its students find them here.`}
      />

      <div className="@container mt-6">
        {/*
          One column (phones): the upload form, the list it adds to, then the link form.
          Two columns: both forms on the left, the list beside them. The DOM keeps the
          one-column order; the list's extra height goes to the second (1fr) row, so the
          link form stays right under the upload form.
        */}
        <div className="grid items-start gap-6 @4xl:grid-cols-[minmax(0,24rem)_minmax(0,1fr)] @4xl:grid-rows-[auto_1fr]">
          <section aria-labelledby={ids.upload} className={`${CARD} min-w-0 @4xl:col-start-1 @4xl:row-start-1`}>
            <h2 id={ids.upload} className="mb-4 text-xl font-bold text-fg">
              <Trans>Upload Resource</Trans>
            </h2>
            <UploadForm teacherSubject={teacher?.subject} />
          </section>

          <section aria-labelledby={ids.list} className="min-w-0 @4xl:col-start-2 @4xl:row-span-2 @4xl:row-start-1">
            <h2 id={ids.list} ref={listHeadingRef} tabIndex={-1} className="rounded-md text-xl font-bold text-fg">
              <Trans>Uploaded Files</Trans>
            </h2>
            <FilterForm label={t`Search your resources`} className="mt-3 mb-4" onApply={applyTexts}>
              <ResourceSearchField {...textInput('search')} />
            </FilterForm>
            {list.isPending ? (
              <LoadingStatus>
                <Trans>Loading your resources…</Trans>
              </LoadingStatus>
            ) : list.isError && list.items.length === 0 ? (
              <ListFailure
                title={t`Your resources could not be loaded.`}
                message={list.error.message}
                onRetry={() => void list.refetch()}
              />
            ) : (
              <>
                <ResourceListStatus
                  list={{ ...list, count: list.items.length }}
                  empty={
                    filters.search ? (
                      <EmptyState title={t`No resources found`} hint={t`Try another search.`} />
                    ) : (
                      <EmptyState
                        title={t`No resources shared`}
                        hint={t`Upload a file or share a video link: it shows here and in the class’s library.`}
                      />
                    )
                  }
                />
                {list.items.length > 0 ? (
                  <ul aria-labelledby={ids.list} className="flex flex-col gap-3">
                    {list.items.map((resource) => (
                      <TeacherResourceItem
                        key={resource._id}
                        resource={resource}
                        onDeleted={() => listHeadingRef.current?.focus()}
                      />
                    ))}
                  </ul>
                ) : null}
                <LoadMoreButton list={list} />
              </>
            )}
          </section>

          <section aria-labelledby={ids.link} className={`${CARD} min-w-0 @4xl:col-start-1 @4xl:row-start-2`}>
            <details className="group">
              <summary className="-m-1 flex cursor-pointer list-none items-center gap-2 rounded-md p-1 [&::-webkit-details-marker]:hidden">
                <ChevronRight
                  className="size-5 shrink-0 text-muted transition-transform group-open:rotate-90 rtl:-scale-x-100 rtl:group-open:-rotate-90"
                  aria-hidden="true"
                />
                <h2 id={ids.link} className="text-lg font-bold text-fg">
                  <Trans>Share a video link</Trans>
                </h2>
              </summary>
              <p className="mt-2 mb-4 text-sm text-muted">
                <Trans>A lesson hosted on YouTube, Vimeo or Wistia, played right in the students’ library.</Trans>
              </p>
              <VideoLinkForm teacherSubject={teacher?.subject} />
            </details>
          </section>
        </div>
      </div>
    </div>
  );
}

function TeacherResourceItem({ resource, onDeleted }: { resource: Resource; onDeleted(): void }) {
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const { fileName } = resource;
  return (
    <li className={RESOURCE_CARD_CLASSES}>
      <ResourceName resource={resource} />
      <ResourceDetails resource={resource} isClassShown />
      <ResourceMedia resource={resource} />
      <div className="flex flex-wrap gap-2 border-t border-line pt-3">
        <Button variant="secondary" size="compact" onClick={() => setDialog('edit')}>
          <Pencil className="size-4" aria-hidden="true" />
          <Trans>
            Edit<span className="sr-only"> {fileName}</span>
          </Trans>
        </Button>
        <button
          type="button"
          onClick={() => setDialog('delete')}
          className="inline-flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-danger transition-colors hover:bg-danger-soft"
        >
          <Trash2 className="size-4" aria-hidden="true" />
          <Trans>
            Delete<span className="sr-only"> {fileName}</span>
          </Trans>
        </button>
      </div>
      {dialog === 'edit' ? <EditResourceDialog resource={resource} onClose={() => setDialog(null)} /> : null}
      {dialog === 'delete' ? (
        <DeleteResourceDialog resource={resource} onClose={() => setDialog(null)} onDeleted={onDeleted} />
      ) : null}
    </li>
  );
}
