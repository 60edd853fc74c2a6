import { plural, t } from '@lingui/core/macro';
import { formatNumber } from './format.ts';

/**
 * Sizes of files and of the storage space in the locale's digits and words, counted in 1024s as
 * SPEC §9 and the server's limits and quota are (UPLOAD_MAX_BYTES 100 MB, 5 GB a teacher, quiz
 * images): format.ts's formatFileSize counts in 1000s, for the limits written that way.
 */

const KILOBYTE = 1024;

/** A size in its largest unit, at most one decimal: "512 bytes", "12.5 KB", "100 MB", "5 GB". */
export function formatStorageAmount(bytes: number): string {
  if (bytes < KILOBYTE) return plural(bytes, { one: '# byte', other: '# bytes' });
  let value = bytes / KILOBYTE;
  let unit = 0;
  while (value >= KILOBYTE && unit < 3) {
    value /= KILOBYTE;
    unit += 1;
  }
  const amount = formatNumber(value, { maximumFractionDigits: 1 });
  switch (unit) {
    case 0:
      return t({ comment: 'A size in kilobytes (1024 bytes)', message: `${amount} KB` });
    case 1:
      return t({ comment: 'A size in megabytes', message: `${amount} MB` });
    case 2:
      return t({ comment: 'A size in gigabytes', message: `${amount} GB` });
    default:
      return t({ comment: 'A size in terabytes', message: `${amount} TB` });
  }
}

/** SPEC §9: a resource's size in KB (bytes / 1024) with one decimal, e.g. "12.3 KB". */
export function formatSizeInKilobytes(bytes: number): string {
  const amount = formatNumber(bytes / KILOBYTE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return t({ comment: 'A size in kilobytes (1024 bytes)', message: `${amount} KB` });
}
