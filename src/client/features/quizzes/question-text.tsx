import { MathText } from '../../components/math-text.tsx';

/**
 * Every question text and option text of the quiz screens goes through here (editor preview
 * lines, attempt, review, analytics), so TeX between delimiters is rendered (MathText, issue 20)
 * everywhere alike, line breaks kept.
 */
export function QuestionText({ text, className }: { text: string; className?: string }) {
  return <MathText text={text} className={className ?? 'wrap-anywhere whitespace-pre-wrap'} />;
}
