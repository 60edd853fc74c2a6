/**
 * Every question text and option text of the quiz screens goes through here (editor preview
 * lines, attempt, review, analytics), so the maths renderer (MathText, issue 20) is wired in
 * one place. Plain text today, line breaks kept.
 */
export function QuestionText({ text, className }: { text: string; className?: string }) {
  return <span className={className ?? 'wrap-anywhere whitespace-pre-wrap'}>{text}</span>;
}
