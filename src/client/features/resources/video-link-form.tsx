import { useQueryClient } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { FALLBACK_UPLOAD_SUBJECT, RESOURCE_LIMITS, VIDEO_LINK_PROVIDERS, videoLinkSchema } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { addResourceLink } from '#shared/contract/resources';
import { ApiError, call } from '../../lib/api.ts';
import { withLoading } from '../../stores/app-store.ts';
import { collectFieldErrors, CommonFields, useCommonValues } from './common-fields.tsx';
import { addResourceToLists } from './resources-queries.ts';
import { resolveUploadSubject } from './upload-request.ts';

const FIELD_ORDER = ['url', 'fileName', 'className', 'subject', 'description', 'tags'] as const;
const PROVIDER_NAMES = VIDEO_LINK_PROVIDERS.map((provider) => provider.name).join(', ');

/** 'Share a video link': a hosted video (YouTube, Vimeo, Wistia) as a resource of a class. */
export function VideoLinkForm({ teacherSubject }: { teacherSubject: string | undefined }) {
  const queryClient = useQueryClient();
  const common = useCommonValues(teacherSubject);
  const [url, setUrl] = useState('');
  const [title, setTitle] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isSending, setIsSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSending) return;
    toast.dismiss();
    const { values } = common;
    const payload = {
      url: url.trim(),
      fileName: title,
      class: values.className,
      subject: resolveUploadSubject(values.subject, teacherSubject),
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
      ...(values.tags.trim() ? { tags: values.tags.trim() } : {}),
    };
    const parsed = videoLinkSchema.safeParse(payload);
    if (!parsed.success) {
      const found = collectFieldErrors(
        parsed.error.issues.map((issue) => ({ field: String(issue.path[0]), message: issue.message })),
      );
      showErrors(found);
      toast.error(FIELD_ORDER.map((field) => found[field]).find(Boolean) ?? 'Please check the form');
      return;
    }
    setErrors({});
    setIsSending(true);
    try {
      const { message, data } = await withLoading(() => call(addResourceLink, { body: payload }));
      toast.success(message);
      setUrl('');
      setTitle('');
      common.clearAfterSuccess();
      await addResourceToLists(queryClient, data);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Something went wrong');
      if (error instanceof ApiError && error.fieldErrors.length > 0) showErrors(collectFieldErrors(error.fieldErrors));
    } finally {
      setIsSending(false);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4">
      <TextField
        label="Video link"
        name="url"
        type="url"
        inputMode="url"
        required
        autoComplete="off"
        maxLength={RESOURCE_LIMITS.linkUrl}
        placeholder="https://www.youtube.com/watch?v=…"
        hint={`An https link to ${PROVIDER_NAMES}.`}
        value={url}
        error={errors.url}
        onChange={(event) => setUrl(event.target.value)}
      />
      <TextField
        label="Title"
        name="fileName"
        required
        autoComplete="off"
        maxLength={RESOURCE_LIMITS.fileName}
        value={title}
        error={errors.fileName}
        onChange={(event) => setTitle(event.target.value)}
      />
      <CommonFields
        values={common.values}
        errors={errors}
        subjectPlaceholder={teacherSubject || FALLBACK_UPLOAD_SUBJECT}
        onChange={common.setField}
      />
      <div>
        <Button type="submit" variant="secondary" disabled={isSending}>
          <Link2 className="size-4" aria-hidden="true" />
          Share link
        </Button>
      </div>
    </form>
  );
}
