import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { listResources } from '#shared/contract/resources';
import { RESOURCE_LIMITS } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { SearchField, SelectField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { LoadFailure } from '../../components/ui/status-cards.tsx';
import { isolate } from '../../lib/format.ts';
import { pagedListOptions, usePagedList } from '../../lib/paged-list.ts';
import type { DraftAttachment } from './assignment-draft.ts';
import { AttachmentIcon } from './teacher-assignment-list.tsx';
import { AttachmentUpload } from './teacher-attachment-upload.tsx';

const PICKER_PAGE_SIZE = 20;

/**
 * "Attach from the library": a new file uploaded into one of the assignment's classes' library,
 * the teacher's own resources (files and video links), or the whole library of one of the
 * assignment's classes (a co-teacher's files too), searched by the server, each attached with one
 * button; those already attached say so.
 */
export function AttachmentPicker({
  attached,
  classes,
  isFull,
  onAttach,
  onClose,
}: {
  attached: readonly DraftAttachment[];
  /** The classes the assignment is for, where an uploaded file goes. */
  classes: readonly { _id: string; name: string }[];
  isFull: boolean;
  onAttach(attachment: DraftAttachment): void;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // '' is the teacher's own uploads; a class's id, that class's whole library (co-teachers' files
  // too), which the server lists only for a class the token's teacher teaches.
  const [source, setSource] = useState('');
  const list = usePagedList(
    pagedListOptions(['resources', 'teacher', 'assignment-picker', source, search], listResources, {
      ...(source ? { classId: source } : {}),
      ...(search ? { search } : {}),
      limit: PICKER_PAGE_SIZE,
    }),
  );
  const attachedIds = new Set(attached.map((attachment) => attachment._id));
  return (
    <ModalDialog
      title={t`Attach from your library`}
      description={t`Files and video links you uploaded to Resources, or those shared with the assignment’s classes.`}
      widthClassName="w-[min(36rem,calc(100%-2rem))]"
      onClose={onClose}
    >
      {(close) => (
        <div className="mt-4 flex flex-col gap-4">
          <AttachmentUpload classes={classes} isFull={isFull} onUploaded={onAttach} />
          <form
            role="search"
            aria-label={t`Search your library`}
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(typed.trim());
            }}
            className="flex flex-wrap items-end gap-2"
          >
            {classes.length > 0 ? (
              <SelectField
                className="w-full sm:w-auto"
                label={t`Show`}
                value={source}
                onChange={setSource}
                options={[
                  { value: '', label: t`Your uploads` },
                  ...classes.map((klass) => ({ value: klass._id, label: t`Library of ${klass.name}` })),
                ]}
              />
            ) : null}
            <SearchField
              className="flex-1"
              label={t`Search`}
              value={typed}
              onChange={setTyped}
              maxLength={RESOURCE_LIMITS.search}
              placeholder={t`Name or description`}
            />
            <Button type="submit" variant="secondary">
              <Trans>Search</Trans>
            </Button>
          </form>
          {list.isPending ? (
            <LoadingStatus>{t`Loading your library…`}</LoadingStatus>
          ) : list.isError && list.items.length === 0 ? (
            <LoadFailure title={t`Your library could not be loaded.`} message={list.error.message} />
          ) : list.items.length === 0 ? (
            <p className="text-sm text-muted">{t`Nothing found in your library.`}</p>
          ) : (
            <ul className="flex max-h-80 flex-col divide-y divide-line overflow-y-auto rounded-lg border border-line">
              {list.items.map((resource) => {
                const isAttached = attachedIds.has(resource._id);
                const name = resource.fileName;
                const uploader = isolate(resource.uploadedBy.name);
                return (
                  <li key={resource._id} className="flex items-center gap-3 p-3">
                    <AttachmentIcon kind={resource.kind} />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-fg">{name}</span>
                      <span className="block truncate text-xs text-muted">
                        {source ? t`Shared by ${uploader}` : resource.class}
                      </span>
                    </span>
                    <Button
                      variant="secondary"
                      disabled={isAttached || isFull}
                      aria-label={isAttached ? t`${name} is attached` : t`Attach ${name}`}
                      onClick={() => onAttach({ _id: resource._id, kind: resource.kind, fileName: name })}
                    >
                      {isAttached ? t`Attached` : t`Attach`}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <LoadMoreButton list={list} className="mt-0" />
          <div className="flex justify-end">
            <Button variant="secondary" onClick={close}>
              <Trans>Done</Trans>
            </Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
