import type { ReactNode } from 'react';
import { cardVariants } from './ui/card.tsx';
import { STACKED_TABLE } from './ui/stacked-table.ts';
import { cn } from '../lib/cn.ts';

export type StaffTableRow = { key: string; heading: ReactNode; cells: ReactNode[] };

const CELL = 'px-3 py-3 align-top text-start';
// The line beside the kept column is on its inline end: its right in English, its left in Arabic.
// Its fill is the row's, given where it is used.
const STICKY =
  'sm:sticky sm:start-0 sm:z-10 sm:shadow-[1px_0_0_var(--color-line)] sm:rtl:shadow-[-1px_0_0_var(--color-line)]';

/**
 * A list (the staff, a class's people, a quiz's accommodations): on a phone one card per row,
 * each value after its column's name (no sideways scrolling, issue 32); wider, a table that
 * scrolls sideways when it must, its first column kept in view so each row still says whose it
 * is. The region takes the focus so a keyboard can scroll it.
 */
export function StaffTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: StaffTableRow[] }) {
  return (
    <div role="region" aria-label={caption} tabIndex={0} className={cn(cardVariants(), 'overflow-x-auto')}>
      <table className={cn('w-full text-sm', STACKED_TABLE.table)}>
        <caption className="sr-only">{caption}</caption>
        <thead className={cn('border-b border-line bg-surface-sunken', STACKED_TABLE.head)}>
          <tr>
            {headers.map((header, index) => (
              <th
                key={header}
                scope="col"
                className={cn(
                  CELL,
                  'text-xs font-semibold whitespace-nowrap text-muted',
                  index === 0 && cn(STICKY, 'bg-surface-sunken'),
                )}
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={cn('divide-y divide-line', STACKED_TABLE.body)}>
          {rows.map((row) => (
            <tr key={row.key} className={STACKED_TABLE.row}>
              <th
                scope="row"
                className={cn(
                  CELL,
                  STICKY,
                  STACKED_TABLE.heading,
                  'bg-surface font-semibold whitespace-normal text-fg max-sm:py-1 sm:max-w-none',
                )}
              >
                {row.heading}
              </th>
              {row.cells.map((cell, index) => (
                <td
                  key={index}
                  data-label={headers[index + 1]}
                  className={cn(
                    CELL,
                    STACKED_TABLE.line,
                    'whitespace-nowrap text-fg max-sm:flex-wrap max-sm:whitespace-normal',
                  )}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const BADGE_TONES = {
  neutral: 'bg-surface-muted text-muted',
  success: 'bg-success-soft text-success',
  warning: 'bg-warning-soft text-warning',
  danger: 'bg-danger-soft text-danger',
  brand: 'bg-brand-50 text-brand-800',
} as const;

/** A short state word in a pill: an invitation's state, a teacher's role. */
export function Badge({ tone, children }: { tone: keyof typeof BADGE_TONES; children: ReactNode }) {
  return (
    <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-semibold', BADGE_TONES[tone])}>
      {children}
    </span>
  );
}
