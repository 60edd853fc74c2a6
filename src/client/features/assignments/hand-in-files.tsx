import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Paperclip, Trash2, Upload } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { ASSIGNMENT_LIMITS, type HandInFile } from '#shared/assignments';
import {
  deleteHandInFile,
  listHandInFiles,
  listOwnHandInFiles,
  uploadHandInFile,
} from '#shared/contract/hand-in-files';
import { RESOURCE_LIMITS } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';
import { call, urlOf } from '../../lib/api.ts';
import { formatFileSize } from '../../lib/format.ts';
import { checkUploadFile, sendMultipart } from '../../lib/multipart-upload.ts';
import { FILE_INPUT_CLASSES } from '../../components/ui/file-input.ts';

/** Whose files: the student's own draft (editable) or a student's hand-in, read by a teacher of their class. */
export type FilesOf = { assignmentId: string; studentId?: string };

const filesKey = ({ assignmentId, studentId }: FilesOf) =>
  ['assignments', assignmentId, 'hand-in', studentId ?? 'own', 'files'] as const;

/**
 * A hand-in's files (decision 061): the student adds files to their draft with a progress bar
 * and removes them; both sides open them in the page — images inline, PDF in the browser's own
 * viewer, audio and video in its players — and download the rest. `onVersion` hears the
 * hand-in's new version after each change (an upload is a change of the draft).
 */
export function HandInFiles({
  of,
  editable = false,
  uploadMaxBytes = RESOURCE_LIMITS.uploadMaxBytesDefault,
  onVersion,
}: {
  of: FilesOf;
  editable?: boolean;
  uploadMaxBytes?: number;
  onVersion?: (version: number) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const ids = { heading: useId(), input: useId(), problem: useId() };
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const { assignmentId, studentId } = of;

  const files = useQuery({
    queryKey: filesKey(of),
    queryFn: async ({ signal }) =>
      studentId === undefined
        ? (await call(listOwnHandInFiles, { params: { id: assignmentId } }, { signal })).data
        : (await call(listHandInFiles, { params: { id: assignmentId, studentId } }, { signal })).data,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: filesKey(of) });

  const upload = useMutation({
    mutationFn: async (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      setProgress(0);
      try {
        return (
          await sendMultipart(uploadHandInFile, body, {
            onProgress: setProgress,
            url: urlOf(uploadHandInFile, { params: { id: assignmentId } }),
          })
        ).data;
      } finally {
        setProgress(null);
      }
    },
    onSuccess: async (uploaded) => {
      onVersion?.(uploaded.version);
      if (inputRef.current) inputRef.current.value = '';
      await refresh();
    },
    // A refused file (its type, the work's file limit, the work handed in meanwhile) is not left
    // in the field as if attached: the field is cleared and the reason stays under it.
    onError: (error) => {
      if (inputRef.current) inputRef.current.value = '';
      setProblem(error.message);
    },
  });
  const remove = useMutation({
    mutationFn: async (file: HandInFile) =>
      (await call(deleteHandInFile, { params: { id: assignmentId, fileId: file._id } })).data,
    onSuccess: async ({ version }) => {
      onVersion?.(version);
      await refresh();
    },
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    const refusal = checkUploadFile(file, uploadMaxBytes);
    setProblem(file ? refusal : null);
    if (file && !refusal) upload.mutate(file);
  };
  const list = files.data ?? [];
  const isFull = list.length >= ASSIGNMENT_LIMITS.handInFilesMax;
  const max = ASSIGNMENT_LIMITS.handInFilesMax;

  return (
    <section aria-labelledby={ids.heading} className="flex flex-col gap-3">
      <h3 id={ids.heading} className="text-base font-semibold text-fg">
        <Trans>Files</Trans>
      </h3>
      {files.isPending ? (
        <p className="text-sm text-muted">
          <Trans>Loading…</Trans>
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted">
          <Trans>No files.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {list.map((file) => (
            <li key={file._id} className="rounded-lg border border-line bg-surface p-3">
              <div className="flex flex-wrap items-center gap-2">
                <Paperclip className="size-4 text-muted" aria-hidden="true" />
                <span className="min-w-40 flex-1 text-sm font-semibold break-words text-fg">
                  <bdi>{file.fileName}</bdi>{' '}
                  <span className="font-normal text-muted">({formatFileSize(file.size)})</span>
                </span>
                {viewerOf(file) === 'download' ? null : (
                  <Button
                    variant="secondary"
                    aria-expanded={opened === file._id}
                    onClick={() => setOpened(opened === file._id ? null : file._id)}
                  >
                    {opened === file._id ? <Trans>Close</Trans> : <Trans>View</Trans>}
                    <span className="sr-only">
                      {' '}
                      <bdi>{file.fileName}</bdi>
                    </span>
                  </Button>
                )}
                <a
                  href={file.url}
                  download={file.fileName}
                  className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
                >
                  <Download className="size-4" aria-hidden="true" />
                  <Trans>Download</Trans>
                  <span className="sr-only">
                    {' '}
                    <bdi>{file.fileName}</bdi>
                  </span>
                </a>
                {editable ? (
                  <Button
                    variant="secondary"
                    aria-disabled={remove.isPending}
                    onClick={() => {
                      if (!remove.isPending) remove.mutate(file);
                    }}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                    <Trans>Remove</Trans>
                    <span className="sr-only">
                      {' '}
                      <bdi>{file.fileName}</bdi>
                    </span>
                  </Button>
                ) : null}
              </div>
              {opened === file._id ? <FileViewer file={file} /> : null}
            </li>
          ))}
        </ul>
      )}

      {editable ? (
        <div className="flex flex-col gap-2">
          <label htmlFor={ids.input} className="inline-flex items-center gap-2 text-sm font-semibold text-fg">
            <Upload className="size-4" aria-hidden="true" />
            <Trans>Add a file</Trans>
          </label>
          <input
            ref={inputRef}
            id={ids.input}
            type="file"
            disabled={isFull || upload.isPending}
            aria-invalid={problem ? true : undefined}
            aria-describedby={ids.problem}
            onChange={choose}
            className={FILE_INPUT_CLASSES}
          />
          <p id={ids.problem} className={problem ? 'text-sm text-danger' : 'text-xs text-muted'}>
            {problem ??
              (isFull
                ? t`This work holds ${max} files, the most it can. Remove one to add another.`
                : t`Up to ${max} files: documents, images, audio or video.`)}
          </p>
          {progress !== null ? (
            <div className="flex flex-col gap-1">
              <UploadProgress progress={progress} />
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

type Viewer = 'image' | 'pdf' | 'audio' | 'video' | 'download';

/** How the page shows a file: in its own element, or not at all (downloaded). */
export function viewerOf(file: Pick<HandInFile, 'mimeType'>): Viewer {
  if (file.mimeType === 'application/pdf') return 'pdf';
  // SVG can carry script: it is downloaded, never shown in the page.
  if (file.mimeType.startsWith('image/') && file.mimeType !== 'image/svg+xml') return 'image';
  if (file.mimeType.startsWith('audio/')) return 'audio';
  if (file.mimeType.startsWith('video/')) return 'video';
  return 'download';
}

/** The file in the browser's own viewer: <img>, the PDF viewer in a frame, the media players. */
function FileViewer({ file }: { file: HandInFile }) {
  const { t } = useLingui();
  const name = file.fileName;
  switch (viewerOf(file)) {
    case 'image':
      return <img src={file.url} alt={name} className="mt-3 max-h-[70vh] max-w-full rounded" />;
    case 'pdf':
      return (
        <iframe src={file.url} title={t`PDF: ${name}`} className="mt-3 h-[70vh] w-full rounded border border-line" />
      );
    case 'audio':
      // eslint-disable-next-line jsx-a11y/media-has-caption -- a student's recording carries no caption track
      return <audio src={file.url} controls preload="metadata" className="mt-3 w-full" aria-label={name} />;
    case 'video':
      return (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- a student's video carries no caption track
        <video
          src={file.url}
          controls
          preload="metadata"
          playsInline
          className="mt-3 max-h-[70vh] w-full"
          aria-label={name}
        />
      );
    case 'download':
      return null;
  }
}
