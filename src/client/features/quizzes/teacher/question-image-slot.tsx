import { ImageIcon } from 'lucide-react';
import type { QuestionImage } from '#shared/question-types';

/**
 * Where a question's or an option's image is edited (issue 20). Today it only shows an image
 * the question already has (its alt text, read-only); the image upload field with required alt
 * text is wired in here, in one place, for every question and option of the editor.
 */
export function QuestionImageSlot({
  image,
  label,
}: {
  image: QuestionImage | undefined;
  /** What the image belongs to: "Question 2", "Option 3 of question 2". */
  label: string;
  onChange?(image: QuestionImage | undefined): void;
  locked?: boolean;
}) {
  if (!image) return null;
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted">
      <ImageIcon className="size-3.5 shrink-0" aria-hidden="true" />
      <span className="wrap-anywhere">
        <span className="sr-only">{label}: </span>Image: {image.alt}
      </span>
    </p>
  );
}
