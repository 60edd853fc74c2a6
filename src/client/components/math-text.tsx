import { useLayoutEffect, useMemo, useRef } from 'react';
import { splitMath, type MathSegment } from '#shared/math-text';
import { lazyModule, useLazyModule } from '../lib/lazy-module.ts';
import type { renderMath } from './katex-render.ts';

type RenderMath = typeof renderMath;

/** KaTeX's chunk, loaded when a first text with math is shown. */
const katex = lazyModule(() => import('./katex-render.ts').then((module) => module.renderMath));

/**
 * A question's or an option's text, with its TeX rendered by KaTeX (decision 036): `\( … \)`
 * inline, `$$ … $$` and `\[ … \]` as display math. Text outside the math is React text, never
 * HTML. KaTeX is downloaded only when the text holds math; until it has loaded, or if it fails
 * to, the TeX shows as typed.
 */
export function MathText({ text, className }: { text: string; className?: string }) {
  const segments = useMemo(() => splitMath(text), [text]);
  const hasMath = segments.some((segment) => segment.kind === 'math');
  const render = useLazyModule(katex, hasMath);

  // A teacher's text keeps its own direction in a page of the other (an English question on an
  // Arabic projector): dir="auto" isolates it and takes its direction from its first strong letter.
  return (
    <span dir="auto" className={className}>
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          segment.text
        ) : (
          <MathSegmentView key={`${index}:${segment.source}`} segment={segment} render={render} />
        ),
      )}
    </span>
  );
}

function MathSegmentView({
  segment,
  render,
}: {
  segment: Extract<MathSegment, { kind: 'math' }>;
  render: RenderMath | undefined;
}) {
  const target = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const element = target.current;
    if (!render || !element) return;
    try {
      render(segment.tex, element, segment.display);
    } catch {
      // KaTeX shows invalid TeX itself (throwOnError: false); anything else shows the source.
      element.textContent = segment.source;
    }
  }, [render, segment]);
  // KaTeX fills the inner span, which React leaves empty; until it has loaded, the source is
  // React's text beside it.
  return (
    <span className={segment.display ? 'block overflow-x-auto' : undefined} data-math={render ? 'rendered' : 'source'}>
      {render ? null : segment.source}
      <span ref={target} />
    </span>
  );
}
