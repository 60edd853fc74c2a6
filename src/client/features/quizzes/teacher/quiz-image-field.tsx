import { useLingui } from '@lingui/react/macro';
import { ImagePlus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { QUIZ_IMAGE_ACCEPT, QUIZ_IMAGE_LIMITS, QUIZ_IMAGE_TYPES } from '#shared/quiz-images';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api.ts';
import { checkUploadFile, formatUploadSize } from '../../../lib/multipart-upload.ts';
import type { DraftImage } from './quiz-draft.ts';
import { cn } from '../../../lib/cn.ts';

/**
 * Chooses, uploads and describes one image of a question or an option (decision 036, "Images").
 * The file is uploaded as soon as it is chosen (POST /api/quizzes/images); the question keeps
 * only `{ fileKey, alt }`. The alt text is required: the quiz's schema refuses an empty one and
 * the form layer shows that error here (`altError`) and focuses the box (`altField` is its key).
 *
 * `compact` (the options' images): a small "Add image" button instead of the labelled file box,
 * so a list of ten options stays readable; the file input is the same, visually hidden.
 *
 * `label` names the image ("Image of question 1"); `removeLabel` is its remove button's name
 * ("Remove image of question 1") and `addLabel` the compact button's ("Add image to option 1 of
 * question 1"): whole sentences, so each language words them its own way.
 */
export function QuizImageField({
  label,
  removeLabel,
  addLabel,
  value,
  onChange,
  altField,
  altError,
  disabled = false,
  compact = false,
}: {
  label: string;
  removeLabel: string;
  /** The compact button's accessible name; it shows "Add image". */
  addLabel?: string;
  compact?: boolean;
  value: DraftImage | null;
  onChange(value: DraftImage | null): void;
  altField: string;
  altError?: string | undefined;
  disabled?: boolean;
}) {
  const ids = { file: useId(), status: useId() };
  const fileInputRef = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<AbortController | null>(null);
  const focusFileInputRef = useRef(false);
  const [isUploading, setIsUploading] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const { t } = useLingui();

  // Leaving the editor stops an upload in progress.
  useEffect(() => () => uploadRef.current?.abort(), []);
  // After Remove, the focus goes back to the file input that replaced the image.
  useEffect(() => {
    if (value === null && focusFileInputRef.current) {
      focusFileInputRef.current = false;
      fileInputRef.current?.focus();
    }
  }, [value]);

  const choose = async (file: File | null) => {
    if (!file) return;
    // The server decides by the bytes; this only spares a refused upload.
    const problem = !(QUIZ_IMAGE_TYPES as readonly string[]).includes(file.type)
      ? t`Choose an image: PNG, JPEG, GIF or WebP.`
      : checkUploadFile(file, QUIZ_IMAGE_LIMITS.maxBytes);
    if (problem) {
      setFileError(problem);
      return;
    }
    setFileError(null);
    setIsUploading(true);
    const controller = new AbortController();
    uploadRef.current = controller;
    try {
      const { uploadQuizImageFile } = await import('./quiz-image-upload.ts');
      const data = await uploadQuizImageFile(file, controller.signal);
      onChange({ fileKey: data.fileKey, alt: '', previewUrl: data.url });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      setFileError(error instanceof ApiError ? error.message : t`The image could not be uploaded. Try again.`);
    } finally {
      uploadRef.current = null;
      setIsUploading(false);
      if (fileInputRef.current) fileInputRef.current.value = '';
    }
  };

  if (value) {
    return (
      <div className="flex flex-col gap-3 rounded-lg border border-line p-3 sm:flex-row sm:items-start">
        {value.previewUrl ? (
          <img
            src={value.previewUrl}
            alt={value.alt}
            className="h-24 w-32 shrink-0 rounded-md border border-line bg-surface-muted object-contain"
          />
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <TextField
            label={t({
              comment: 'The alt text of an image: Image of question 1: description',
              message: `${label}: description`,
            })}
            hint={t`What the image shows, for people who cannot see it.`}
            required
            maxLength={QUIZ_IMAGE_LIMITS.alt}
            value={value.alt}
            data-field={altField}
            error={altError}
            disabled={disabled}
            onChange={(event) => onChange({ ...value, alt: event.target.value })}
          />
          <Button
            variant="secondary"
            size="sm"
            className="self-start"
            disabled={disabled}
            onClick={() => {
              focusFileInputRef.current = true;
              onChange(null);
            }}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            {removeLabel}
          </Button>
        </div>
      </div>
    );
  }

  const largest = formatUploadSize(QUIZ_IMAGE_LIMITS.maxBytes);
  const status = fileError ?? (isUploading ? t`Uploading the image…` : t`PNG, JPEG, GIF or WebP, up to ${largest}.`);
  const fileInput = (
    <input
      ref={fileInputRef}
      id={ids.file}
      type="file"
      accept={QUIZ_IMAGE_ACCEPT}
      disabled={disabled || isUploading}
      aria-invalid={fileError ? true : undefined}
      aria-describedby={ids.status}
      onChange={(event) => void choose(event.target.files?.[0] ?? null)}
      className={
        compact
          ? 'sr-only'
          : 'w-full min-w-0 rounded-lg border border-line-strong bg-surface text-sm text-fg shadow-sm file:me-3 file:cursor-pointer file:border-0 file:border-e file:border-line-strong file:bg-surface-muted file:px-3 file:py-2 file:font-semibold file:text-fg hover:file:bg-line focus:ring-2 focus:ring-brand-500 focus:outline-none'
      }
    />
  );
  return (
    <div className={cn('flex flex-col gap-1.5', compact && 'items-start')}>
      <label
        htmlFor={ids.file}
        className={cn(
          'flex items-center gap-2 text-sm font-medium',
          compact
            ? 'min-h-9 cursor-pointer rounded-lg px-2 text-muted focus-within:ring-2 focus-within:ring-brand-500 hover:bg-surface-muted hover:text-fg'
            : 'text-fg',
        )}
      >
        <ImagePlus className="size-4" aria-hidden="true" />
        {compact ? (
          <span>
            <span aria-hidden="true">{t`Add image`}</span>
            <span className="sr-only">{addLabel ?? t`Add image`}</span>
          </span>
        ) : (
          t({ comment: 'A file box: Image of question 1 (optional)', message: `${label} (optional)` })
        )}
        {compact ? fileInput : null}
      </label>
      {compact ? null : fileInput}
      <p
        id={ids.status}
        role={fileError ? 'alert' : 'status'}
        className={cn(
          fileError ? 'text-sm text-danger' : 'text-xs text-muted',
          compact && !fileError && !isUploading && 'sr-only',
        )}
      >
        {status}
      </p>
    </div>
  );
}
