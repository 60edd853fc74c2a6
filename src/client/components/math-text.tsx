import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { splitMath, type MathSegment } from '#shared/math-text';

type RenderMath = typeof import('./katex-render.ts').renderMath;

/** One load for the whole page, shared by every MathText; a failed load is tried again next time. */
let katexLoading: Promise<RenderMath> | undefined;
function loadKatex(): Promise<RenderMath> {
  katexLoading ??= import('./katex-render.ts').then(
    (module) => module.renderMath,
    (error: unknown) => {
      katexLoading = undefined;
      throw error;
    },
  );
  return katexLoading;
}

/**
 * A question's or an option's text, with its TeX rendered by KaTeX (decision 036): `\( … \)`
 * inline, `$$ … $$` and `\[ … \]` as display math. Text outside the math is React text, never
 * HTML. KaTeX is downloaded only when the text holds math; until it has loaded, or if it fails
 * to, the TeX shows as typed.
 */
export function MathText({ text, className }: { text: string; className?: string }) {
  const segments = useMemo(() => splitMath(text), [text]);
  const hasMath = segments.some((segment) => segment.kind === 'math');
  const [render, setRender] = useState<RenderMath | undefined>(undefined);

  useEffect(() => {
    if (!hasMath || render) return;
    let isCurrent = true;
    loadKatex().then(
      (loaded) => {
        if (isCurrent) setRender(() => loaded);
      },
      () => undefined, // the raw TeX stays: still readable
    );
    return () => {
      isCurrent = false;
    };
  }, [hasMath, render]);

  return (
    <span className={className}>
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
  const [isRendered, setIsRendered] = useState(false);
  useLayoutEffect(() => {
    const element = target.current;
    if (!render || !element) return;
    try {
      render(segment.tex, element, segment.display);
      setIsRendered(true);
    } catch {
      // KaTeX shows invalid TeX itself (throwOnError: false); anything else leaves the source shown.
      element.replaceChildren();
      setIsRendered(false);
    }
  }, [render, segment]);
  // KaTeX fills the inner span, which React leaves empty; the source is React's text beside it.
  return (
    <span
      className={segment.display ? 'block overflow-x-auto' : undefined}
      data-math={isRendered ? 'rendered' : 'source'}
    >
      {isRendered ? null : segment.source}
      <span ref={target} />
    </span>
  );
}
