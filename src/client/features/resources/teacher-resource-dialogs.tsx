import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { resourceUpdateSchema, type Resource } from '#shared/resources';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { deleteResource, updateResource } from '#shared/contract/resources';
import { call } from '../../lib/api.ts';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { withLoading } from '../../stores/app-store.ts';
import { ClassField, DescriptionField, ResourceNameField, resourceFieldOf, TagsField } from './common-fields.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { joinTags } from './resource-filters.ts';
import { refreshStorageUsage, removeResource, replaceResource, resourceQueries } from './resources-queries.ts';

/** Edit a resource's name, description, tags and class (PATCH /api/teacher/resources/{id}). */
export function EditResourceDialog({ resource, onClose }: { resource: Resource; onClose(): void }) {
  const { t } = useLingui();
  const { fileName } = resource;
  return (
    <ModalDialog title={t`Edit ${fileName}`} onClose={onClose} initialFocus='[name="fileName"]'>
      {(close) => <EditResourceForm resource={resource} close={close} />}
    </ModalDialog>
  );
}

function EditResourceForm({ resource, close }: { resource: Resource; close(): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    fileName: resource.fileName,
    description: resource.description ?? '',
    tags: joinTags(resource.tags),
    classId: resource.classId,
  });
  const setValue = (field: keyof typeof values, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));
  const form = useEndpointForm({
    schema: resourceUpdateSchema,
    fieldOf: resourceFieldOf,
    toBody: () => ({
      fileName: values.fileName,
      description: values.description,
      tags: values.tags,
      // Sent only to move it: a resource of an archived class can still be renamed.
      ...(values.classId === resource.classId || values.classId === '' ? {} : { classId: values.classId }),
    }),
    onSubmit: async (_update, { body }) => {
      const { data } = await call(updateResource, { params: { id: resource._id }, body });
      replaceResource(queryClient, data);
      void queryClient.invalidateQueries({ queryKey: resourceQueries.all });
      toast.success(t`Resource updated`);
      close();
    },
  });

  return (
    <form {...form.formProps} className="mt-4 flex flex-col gap-4">
      <ResourceNameField
        label={t({ comment: 'The name a resource is listed by', message: 'Name' })}
        value={values.fileName}
        error={form.errors.fileName}
        onChange={(value) => setValue('fileName', value)}
      />
      <DescriptionField
        value={values.description}
        error={form.errors.description}
        onChange={(value) => setValue('description', value)}
      />
      <TagsField value={values.tags} error={form.errors.tags} onChange={(value) => setValue('tags', value)} />
      <ClassField
        value={values.classId}
        error={form.errors.classId}
        onChange={(value) => setValue('classId', value)}
        current={{ _id: resource.classId, name: resource.class }}
      />
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="ghost" onClick={close}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={form.isSubmitting}>
          {form.isSubmitting ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
        </Button>
      </div>
    </form>
  );
}

/** 'Delete {name}?': an alert dialog; Delete removes the resource and its file. */
export function DeleteResourceDialog({
  resource,
  onClose,
  onDeleted,
}: {
  resource: Resource;
  onClose(): void;
  /** After the resource is gone (its own buttons with it). */
  onDeleted(): void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [isDeleting, setIsDeleting] = useState(false);
  const { fileName, class: className } = resource;

  const confirm = async (close: () => void) => {
    setIsDeleting(true);
    try {
      await withLoading(() => call(deleteResource, { params: { id: resource._id } }));
      close();
      removeResource(queryClient, resource._id);
      void queryClient.invalidateQueries({ queryKey: resourceQueries.all });
      void refreshStorageUsage(queryClient); // its space is free again
      toast.success(t`Resource deleted`);
      onDeleted();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    } finally {
      setIsDeleting(false);
    }
  };

  return (
    <ModalDialog
      title={t`Delete this resource?`}
      role="alertdialog"
      onClose={onClose}
      initialFocus="[data-initial-focus]"
    >
      {(close) => (
        <>
          <p className="mt-3 text-fg">
            <Trans>
              <bdi className="font-semibold wrap-anywhere">{fileName}</bdi> will be removed for you and for the students
              of <bdi>{className}</bdi>. This cannot be undone.
            </Trans>
          </p>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button type="button" data-initial-focus onClick={close} className={buttonVariants({ variant: 'ghost' })}>
              <Trans>Cancel</Trans>
            </button>
            <Button variant="danger" disabled={isDeleting} onClick={() => void confirm(close)}>
              {isDeleting ? <Trans>Deleting…</Trans> : <Trans>Delete</Trans>}
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
