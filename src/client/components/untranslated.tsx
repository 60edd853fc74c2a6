import type { ReactNode } from 'react';

/**
 * Screens whose texts are not in the translation layer yet (issue 32 goes on): they say they
 * are English, left to right, whatever the page's locale. Without it an Arabic visitor's
 * untranslated screens came as English laid out right to left, with their punctuation at the
 * wrong end. `display: contents` adds no box: only `lang` and the direction reach the screen.
 * Remove it from a screen when its texts are translated.
 */
export function Untranslated({ children }: { children: ReactNode }) {
  return (
    <div lang="en" dir="ltr" className="contents">
      {children}
    </div>
  );
}
