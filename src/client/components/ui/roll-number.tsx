import { cn } from '../../lib/cn.ts';
import { wholeToken } from '../../lib/whole-token.ts';

/**
 * A student's roll number in a line of text or a table cell: isolated from the text around it
 * (a Latin `2024-017` in an Arabic line keeps its order) and kept on one line (never broken at
 * its hyphen, issue 32), unless too long for any line.
 */
export function RollNumber({ value, className }: { value: string; className?: string }) {
  return <bdi className={cn(wholeToken(value), className)}>{value}</bdi>;
}
