/**
 * What the landing page's For Teachers / For Students tabs look like and how the keyboard moves
 * between them. Plain TypeScript, no React: the React page (landing-page.tsx) and the script of
 * the prerendered page (landing-entry.ts) both use it, so the two cannot drift apart.
 */

/** The class names of a tab; the selected one is lifted onto a white pill. */
export function tabClassName(isSelected: boolean): string {
  return `rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors sm:px-6 sm:text-base ${
    isSelected ? 'bg-surface text-brand-700 shadow-sm' : 'text-muted hover:bg-surface/60 hover:text-fg'
  }`;
}

/**
 * The tab a key moves the selection to (WAI-ARIA tabs: the arrow toward the end of the line goes
 * to the next tab, wrapping around; Home/End go to the ends), or undefined when the key is not one
 * of these and should keep its default. Right to left (Arabic), Left is the next tab.
 */
export function tabIndexAfterKey(
  key: string,
  current: number,
  count: number,
  direction: 'ltr' | 'rtl' = 'ltr',
): number | undefined {
  const last = count - 1;
  const [nextKey, previousKey] = direction === 'rtl' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft'];
  switch (key) {
    case nextKey:
      return current >= last ? 0 : current + 1;
    case previousKey:
      return current <= 0 ? last : current - 1;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return undefined;
  }
}

/** The direction text runs in where `element` is (its `dir`, inherited from <html>). */
export function directionAt(element: Element): 'ltr' | 'rtl' {
  return element.closest('[dir]')?.getAttribute('dir') === 'rtl' ? 'rtl' : 'ltr';
}
