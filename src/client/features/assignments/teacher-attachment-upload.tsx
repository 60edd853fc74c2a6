import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Upload, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';
import { formatStorageAmount } from '../../lib/file-sizes.ts';
import { addResourceToLists, useUploadLimits } from '../resources/resources-queries.ts';
import { buildUploadFormData, checkUploadFile } from '../resources/upload-request.ts';
import { useResourceUpload } from '../resources/use-resource-upload.ts';
import { useProfile } from '../session/profile.ts';
import type { DraftAttachment } from './assignment-draft.ts';
import { FILE_INPUT_CLASSES } from '../../components/ui/file-input.ts';

/**
 * "Upload a new file" in the attachment picker (issue 33 point 1: attachments are uploads
 * through the existing storage or files of the library): the file goes to the library of one
 * of the assignment's classes through the resources' own upload (POST
 * /api/teacher/upload-resource, checked by content there), with its progress, then is attached.
 */
export function AttachmentUpload({
  classes,
  isFull,
  onUploaded,
}: {
  /** The classes the assignment is for: the file joins one of their libraries. */
  classes: readonly { _id: string; name: string }[];
  isFull: boolean;
  onUploaded(attachment: DraftAttachment): void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const teacherSubject = useProfile('teacher')?.subject;
  const { maxBytes, storage } = useUploadLimits();
  const ids = { file: useId(), classId: useId(), problem: useId() };
  const [chosenClassId, setChosenClassId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useResourceUpload();
  const progress = upload.progress;
  const fileInputRef = useRef<HTMLInputElement>(null);

  const classId = classes.some((taught) => taught._id === chosenClassId) ? chosenClassId : (classes[0]?._id ?? '');
  const maxSize = formatStorageAmount(maxBytes);

  const uploadAndAttach = async (file: File) => {
    const refused = checkUploadFile(file, maxBytes, storage?.leftBytes);
    if (refused) {
      setProblem(refused);
      return;
    }
    setProblem(null);
    try {
      await upload.send(
        buildUploadFormData({ file, classId, subject: '', description: '', tags: '' }, teacherSubject),
        async (data) => {
          onUploaded({ _id: data._id, kind: data.kind, fileName: data.fileName });
          await addResourceToLists(queryClient, data);
        },
      );
    } catch (error) {
      setProblem(
        error instanceof DOMException && error.name === 'AbortError'
          ? t`Upload cancelled.`
          : error instanceof Error
            ? error.message
            : t`The file could not be uploaded.`,
      );
    } finally {
      if (fileInputRef.current) fileInputRef.current.value = '';
    }
  };

  if (classes.length === 0)
    return <p className="text-sm text-muted">{t`Choose a class first: a new file goes into its library.`}</p>;

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-line p-3" aria-busy={progress !== null}>
      {classes.length > 1 ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.classId} className="text-sm font-medium text-fg">
            <Trans>Into the library of</Trans>
          </label>
          <select
            id={ids.classId}
            value={classId}
            disabled={progress !== null}
            onChange={(event) => setChosenClassId(event.target.value)}
            className="min-h-11 rounded-lg border border-line-strong bg-surface px-3 text-sm text-fg"
          >
            {classes.map((taught) => (
              <option key={taught._id} value={taught._id}>
                {taught.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <label htmlFor={ids.file} className="inline-flex items-center gap-2 text-sm font-semibold text-fg">
        <Upload className="size-4" aria-hidden="true" />
        <Trans>Upload a new file</Trans>
      </label>
      <input
        ref={fileInputRef}
        id={ids.file}
        type="file"
        disabled={isFull || progress !== null}
        aria-invalid={problem ? true : undefined}
        aria-describedby={ids.problem}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void uploadAndAttach(file);
        }}
        className={FILE_INPUT_CLASSES}
      />
      <p
        id={ids.problem}
        role={problem ? 'alert' : undefined}
        className={problem ? 'text-sm text-danger' : 'text-xs text-muted'}
      >
        {problem ??
          t`Documents, images, audio or video, up to ${maxSize}. It joins the class’s library and is attached.`}
      </p>
      {progress !== null ? (
        <div className="flex flex-col gap-2">
          <UploadProgress progress={progress} />
          <Button variant="secondary" onClick={upload.cancel}>
            <X className="size-4" aria-hidden="true" />
            <Trans>Cancel upload</Trans>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
