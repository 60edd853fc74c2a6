import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Upload, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { FALLBACK_UPLOAD_SUBJECT, uploadFieldsSchema } from '#shared/resources';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';
import { cn } from '../../lib/cn.ts';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { CommonFields, resourceFieldOf, useCommonValues } from './common-fields.tsx';
import { addResourceToLists, useUploadLimits } from './resources-queries.ts';
import { formatStorageAmount } from '../../lib/file-sizes.ts';
import {
  buildUploadFormData,
  checkUploadFile,
  describeStorageUsage,
  fileRefusal,
  resolveUploadSubject,
  type StorageUsage,
} from './upload-request.ts';
import { useResourceUpload } from './use-resource-upload.ts';

/**
 * 'Upload Resource' (SPEC §2, §4, §5): a file and its class, subject,
 * description and tags, sent as multipart with real progress, cancellable.
 * The progress bar is the loading indicator here: the global overlay would
 * hide it and the Cancel button.
 */
export function UploadForm({ teacherSubject }: { teacherSubject: string | undefined }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const common = useCommonValues(teacherSubject);
  const { maxBytes, storage } = useUploadLimits();
  const [file, setFile] = useState<File | null>(null);
  const upload = useResourceUpload();
  const progress = upload.progress;
  const fileInputRef = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const ids = { file: useId() };
  const isUploading = progress !== null;
  const maxSize = formatStorageAmount(maxBytes);

  const form = useEndpointForm({
    schema: uploadFieldsSchema,
    fieldOf: resourceFieldOf,
    toBody: () => ({
      classId: common.values.classId,
      subject: resolveUploadSubject(common.values.subject, teacherSubject),
      description: common.values.description,
      tags: common.values.tags,
    }),
    // The file is not in the schema's body: its size and the space left are checked here.
    refineErrors: (errors) => {
      const fileProblem = checkUploadFile(file, maxBytes, storage?.leftBytes);
      return fileProblem ? { file: fileProblem, ...errors } : errors;
    },
    onSubmit: async () => {
      if (!file) return;
      try {
        await upload.send(buildUploadFormData({ file, ...common.values }, teacherSubject), async (data) => {
          toast.success(t`Resource uploaded`);
          // SPEC §4: file, description, tags and progress start again.
          setFile(null);
          if (fileInputRef.current) fileInputRef.current.value = '';
          common.clearAfterSuccess();
          await addResourceToLists(queryClient, data);
        });
      } catch (error) {
        if (!(error instanceof DOMException && error.name === 'AbortError')) throw error;
        toast(t`Upload cancelled.`);
        submitRef.current?.focus(); // the Cancel button that had the focus is gone
      }
    },
    // Too large or a type not allowed: said under the file field too.
    errorsOfFailure: (error) => {
      const refusal = fileRefusal(error);
      return refusal ? { file: refusal } : null;
    },
  });
  const errors = form.errors;

  const handleFileChange = (chosen: File | null) => {
    setFile(chosen);
    // Too large is said at once, before anyone presses Upload; another file clears what was said.
    const problem = chosen ? checkUploadFile(chosen, maxBytes, storage?.leftBytes) : null;
    if (problem) form.setErrors((current) => ({ ...current, file: problem }));
  };

  return (
    <form {...form.formProps} className="flex flex-col gap-4" aria-busy={isUploading}>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={ids.file} className="text-sm font-medium text-fg">
          <Trans comment="The file to upload">File</Trans>
          <span aria-hidden="true" className="text-danger">
            {' '}
            *
          </span>
        </label>
        <input
          ref={fileInputRef}
          id={ids.file}
          name="file"
          type="file"
          required
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={`${ids.file}-${errors.file ? 'error' : 'hint'}`}
          onChange={(event) => handleFileChange(event.target.files?.[0] ?? null)}
          className="w-full min-w-0 rounded-lg border border-line-strong bg-surface text-sm text-fg shadow-sm file:me-3 file:cursor-pointer file:border-0 file:border-e file:border-line-strong file:bg-surface-muted file:px-3 file:py-2.5 file:font-semibold file:text-fg hover:file:bg-line focus:ring-2 focus:ring-brand-500 focus:outline-none"
        />
        {errors.file ? (
          <p id={`${ids.file}-error`} className="text-sm text-danger">
            {errors.file}
          </p>
        ) : (
          <p id={`${ids.file}-hint`} className="text-xs text-muted">
            <Trans>Documents, images, audio or video, up to {maxSize}.</Trans>
          </p>
        )}
        {storage ? <StorageMeter storage={storage} /> : null}
      </div>

      <CommonFields
        values={common.values}
        errors={errors}
        subjectPlaceholder={teacherSubject || FALLBACK_UPLOAD_SUBJECT}
        onChange={common.setField}
      />

      {isUploading ? (
        <div className="flex flex-col gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3">
          <UploadProgress progress={progress ?? 0} labelClassName="text-sm font-semibold text-fg" />
        </div>
      ) : null}

      <div className="flex flex-wrap gap-3">
        {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
        <button
          ref={submitRef}
          type="submit"
          aria-disabled={isUploading}
          className={cn(buttonVariants({ variant: 'primary' }), 'min-w-32')}
        >
          <Upload className="size-4" aria-hidden="true" />
          {isUploading ? <Trans>Uploading…</Trans> : <Trans>Upload</Trans>}
        </button>
        {isUploading ? (
          <Button variant="secondary" onClick={upload.cancel}>
            <X className="size-4" aria-hidden="true" />
            <Trans>Cancel upload</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** "Storage: 1.2 GB of 5 GB used" with a bar; the bar turns amber once nine tenths are used. */
function StorageMeter({ storage }: { storage: StorageUsage }) {
  const usedPercent = Math.min(100, Math.ceil((storage.usedBytes / storage.quotaBytes) * 100));
  return (
    <div className="mt-1 flex flex-col gap-1">
      <p className="text-xs text-muted">
        <span className="font-semibold">
          <Trans comment="The teacher's storage space, before how much of it is used">Storage:</Trans>
        </span>{' '}
        {describeStorageUsage(storage)}
      </p>
      {/* The sentence says it all; the bar only shows it. */}
      <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-line">
        <div
          className={`h-full rounded-full ${usedPercent >= 90 ? 'bg-warning-line' : 'bg-brand-600'}`}
          style={{ width: `${usedPercent}%` }}
        />
      </div>
    </div>
  );
}
