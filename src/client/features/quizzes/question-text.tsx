import { MathText } from '../../components/math-text.tsx';

/**
 * Every question text and option text of the quiz screens goes through here (editor preview
 * lines, attempt, review, analytics), so TeX between delimiters is rendered (MathText, issue 20)
 * everywhere alike, line breaks kept.
 */
export function QuestionText({ text, className }: { text: string; className?: string }) {
  return <MathText text={text} className={className ?? 'wrap-anywhere whitespace-pre-wrap'} />;
}

/** A question's or an option's image as the server presents it (signed address, alt text). */
export function QuestionImage({ image, className }: { image: { url: string; alt: string }; className?: string }) {
  return (
    <img
      src={image.url}
      alt={image.alt}
      loading="lazy"
      className={
        className ?? 'max-h-80 w-auto max-w-full rounded-lg border border-line bg-surface-muted object-contain'
      }
    />
  );
}
