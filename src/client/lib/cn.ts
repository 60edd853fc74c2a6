import { clsx, type ClassValue } from 'clsx';

/** A check of each joined class list; only the component tests register one (`testing/dom-setup.ts`). */
let classCheck: ((classes: string) => void) | null = null;

/** Registers (or, with null, removes) the check `cn` runs on every list it joins. */
export function setClassCheck(check: ((classes: string) => void) | null): void {
  classCheck = check;
}

/**
 * Class names joined as clsx does (conditionals, arrays), nothing merged: no two utilities of one
 * property may meet in one list, since which wins depends on their order in the stylesheet, not in
 * the attribute (decision 027). A primitive takes a caller's different padding or look as a
 * variant. The component tests check every list with tailwind-merge, which the bundle leaves out
 * (about 8 kB gzipped on every screen).
 */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  classCheck?.(classes);
  return classes;
}
