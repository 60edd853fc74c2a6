import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Class names joined as clsx does (conditionals, arrays), then merged by tailwind-merge so
 * that a later utility replaces an earlier one of the same property: a caller's `px-3`
 * beats a primitive's own `px-4`, whatever order the two have in the stylesheet.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
