import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { FALLBACK_UPLOAD_SUBJECT, RESOURCE_LIMITS, VIDEO_LINK_PROVIDERS, videoLinkSchema } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { addResourceLink } from '#shared/contract/resources';
import { call } from '../../lib/api.ts';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { withLoading } from '../../stores/app-store.ts';
import { CommonFields, ResourceNameField, resourceFieldOf, useCommonValues } from './common-fields.tsx';
import { addResourceToLists } from './resources-queries.ts';
import { resolveUploadSubject } from './upload-request.ts';
import { formatList } from '../../lib/format.ts';

/** 'Share a video link': a hosted video (YouTube, Vimeo, Wistia) as a resource of a class. */
export function VideoLinkForm({ teacherSubject }: { teacherSubject: string | undefined }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const common = useCommonValues(teacherSubject);
  const [url, setUrl] = useState('');
  const providers = formatList(VIDEO_LINK_PROVIDERS.map((provider) => provider.name));
  const [title, setTitle] = useState('');
  const form = useEndpointForm({
    schema: videoLinkSchema,
    fieldOf: resourceFieldOf,
    toBody: () => {
      const { values } = common;
      return {
        url: url.trim(),
        fileName: title,
        classId: values.classId,
        subject: resolveUploadSubject(values.subject, teacherSubject),
        ...(values.description.trim() ? { description: values.description.trim() } : {}),
        ...(values.tags.trim() ? { tags: values.tags.trim() } : {}),
      };
    },
    onSubmit: async (_link, { body }) => {
      const { data } = await withLoading(() => call(addResourceLink, { body }));
      toast.success(t`Video link shared`);
      setUrl('');
      setTitle('');
      common.clearAfterSuccess();
      await addResourceToLists(queryClient, data);
    },
  });

  return (
    <form {...form.formProps} className="flex flex-col gap-4">
      <TextField
        label={t`Video link`}
        type="url"
        inputMode="url"
        required
        autoComplete="off"
        maxLength={RESOURCE_LIMITS.linkUrl}
        placeholder="https://www.youtube.com/watch?v=…"
        hint={t`An https link to ${providers}.`}
        {...form.field('url')}
        value={url}
        onChange={(event) => setUrl(event.target.value)}
      />
      <ResourceNameField
        label={t({ comment: 'The title of a shared video', message: 'Title' })}
        value={title}
        error={form.errors.fileName}
        onChange={setTitle}
      />
      <CommonFields
        values={common.values}
        errors={form.errors}
        subjectPlaceholder={teacherSubject || FALLBACK_UPLOAD_SUBJECT}
        onChange={common.setField}
      />
      <div>
        <Button type="submit" variant="secondary" disabled={form.isSubmitting}>
          <Link2 className="size-4" aria-hidden="true" />
          <Trans>Share link</Trans>
        </Button>
      </div>
    </form>
  );
}
