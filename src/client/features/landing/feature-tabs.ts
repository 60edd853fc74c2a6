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
 * The tab a key moves the selection to (WAI-ARIA tabs: Left/Right wrap around, Home/End go to
 * the ends), or undefined when the key is not one of these and should keep its default.
 */
export function tabIndexAfterKey(key: string, current: number, count: number): number | undefined {
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
      return current >= last ? 0 : current + 1;
    case 'ArrowLeft':
      return current <= 0 ? last : current - 1;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return undefined;
  }
}
