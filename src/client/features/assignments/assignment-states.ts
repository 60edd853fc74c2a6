import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { HandInRow } from '#shared/assignments';

/**
 * What the grading list shows of a hand-in (decision 063): the server's state (a draft is "not
 * handed in") with its two flags made visible, missing (not handed in, past due) and late.
 */
export const HAND_IN_STATUSES = ['missing', 'not-handed-in', 'late', 'handed-in', 'graded', 'returned'] as const;
export type HandInStatus = (typeof HAND_IN_STATUSES)[number];

export function handInStatusOf(row: Pick<HandInRow, 'state' | 'missing' | 'late'>): HandInStatus {
  if (row.state === 'not-handed-in') return row.missing ? 'missing' : 'not-handed-in';
  if (row.state === 'handed-in') return row.late ? 'late' : 'handed-in';
  return row.state;
}

/** Graded or returned work that came in after the due time keeps its late mark beside its state. */
export const isGradedLate = (row: Pick<HandInRow, 'state' | 'late'>) =>
  row.late && (row.state === 'graded' || row.state === 'returned');

export const HAND_IN_STATUS_LABELS: Record<HandInStatus, MessageDescriptor> = {
  missing: msg({ comment: 'A hand-in’s state: not handed in, past the due time', message: 'Missing' }),
  'not-handed-in': msg({ comment: 'A hand-in’s state', message: 'Not handed in' }),
  late: msg({ comment: 'A hand-in’s state: handed in after the due time', message: 'Handed in late' }),
  'handed-in': msg({ comment: 'A hand-in’s state', message: 'Handed in' }),
  graded: msg({ comment: 'A hand-in’s state: graded, not yet returned to the student', message: 'Graded' }),
  returned: msg({ comment: 'A hand-in’s state: the student sees the grade', message: 'Returned' }),
};

/** The state filter's choices: a state, or a group of them ("not handed in" includes the missing ones). */
export const HAND_IN_FILTERS = ['all', 'not-handed-in', 'missing', 'to-grade', 'late', 'graded', 'returned'] as const;
export type HandInFilter = (typeof HAND_IN_FILTERS)[number];

export const HAND_IN_FILTER_LABELS: Record<HandInFilter, MessageDescriptor> = {
  all: msg({ comment: 'Filter of hand-ins: every student', message: 'Every student' }),
  'not-handed-in': msg({ comment: 'Filter of hand-ins', message: 'Not handed in' }),
  missing: msg({ comment: 'Filter of hand-ins: not handed in, past the due time', message: 'Missing' }),
  'to-grade': msg({ comment: 'Filter of hand-ins: handed in, not graded yet', message: 'To grade' }),
  late: msg({ comment: 'Filter of hand-ins: handed in after the due time', message: 'Handed in late' }),
  graded: msg({ comment: 'Filter of hand-ins: graded, not returned', message: 'Graded' }),
  returned: msg({ comment: 'Filter of hand-ins', message: 'Returned' }),
};

export function matchesHandInFilter(row: HandInRow, filter: HandInFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'not-handed-in':
      return row.state === 'not-handed-in';
    case 'missing':
      return row.state === 'not-handed-in' && row.missing;
    case 'to-grade':
      return row.state === 'handed-in';
    case 'late':
      return row.state !== 'not-handed-in' && row.late;
    case 'graded':
    case 'returned':
      return row.state === filter;
  }
}
