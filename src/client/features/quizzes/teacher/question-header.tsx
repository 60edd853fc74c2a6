import { useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { TOOLTIP } from '#shared/constants';
import { MathText } from '../../../components/math-text.tsx';
import { formatNumber } from '../../../lib/format.ts';

const EDGE_PX = 8;
const MAX_WIDTH_PX = 320;

type Placement = { top: number; left: number; width: number };

/** Under the trigger, centred on it, kept inside the viewport. */
function placementFor(trigger: HTMLElement | null, popup: HTMLElement | null): Placement | null {
  if (!trigger) return null;
  const rect = trigger.getBoundingClientRect();
  const maxWidth = Math.min(MAX_WIDTH_PX, window.innerWidth - 2 * EDGE_PX);
  // The popup is always in the page (it fades), so its own width can be measured.
  const width = Math.min(popup?.offsetWidth || maxWidth, maxWidth);
  const centred = rect.left + rect.width / 2 - width / 2;
  const left = Math.min(Math.max(EDGE_PX, centred), window.innerWidth - width - EDGE_PX);
  return { top: rect.bottom + TOOLTIP.offsetPx, left, width: maxWidth };
}

/**
 * A question column's header, "Q1", that shows the question text on hover,
 * keyboard focus or tap (SPEC §2 analytics). The shared Tooltip keeps its
 * label on one line and inside its parent; question text can be long and the
 * table scrolls, so this one wraps and is placed against the viewport.
 */
export function QuestionHeader({ number: count, text }: { number: number; text: string }) {
  const tooltipId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popupRef = useRef<HTMLSpanElement>(null);
  const [placement, setPlacement] = useState<Placement | null>(null);
  // Open while the pointer is over the button or the button has focus: leaving with the pointer
  // does not close what focus holds open (a tap after any mouse use sends a leave at once), and
  // losing focus does not close what the pointer holds open. Escape dismisses it either way
  // (WCAG 1.4.13) until the next hover, focus or click.
  const [isHovered, setIsHovered] = useState(false);
  const [isFocused, setIsFocused] = useState(false);
  const [isDismissed, setIsDismissed] = useState(false);
  const isOpen = !isDismissed && (isHovered || isFocused);
  const { t } = useLingui();
  const number = formatNumber(count);

  const show = () => {
    setPlacement(placementFor(buttonRef.current, popupRef.current));
    setIsDismissed(false);
  };

  // The popup is placed against the viewport, so it follows its header when
  // anything scrolls (focusing a header can scroll the table to it).
  useEffect(() => {
    if (!isOpen) return;
    const follow = () => setPlacement(placementFor(buttonRef.current, popupRef.current));
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [isOpen]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-describedby={tooltipId}
        onMouseEnter={() => {
          show();
          setIsHovered(true);
        }}
        onMouseLeave={() => setIsHovered(false)}
        onFocus={() => {
          show();
          setIsFocused(true);
        }}
        onBlur={() => setIsFocused(false)}
        // A tap on a touch screen also sends hover and focus: it must open, never toggle shut.
        // Safari does not focus a tapped button: focusing it here keeps the tooltip until a tap elsewhere.
        onClick={() => {
          show();
          buttonRef.current?.focus();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setIsDismissed(true);
        }}
        className="rounded-md px-2 py-1 font-semibold text-fg underline decoration-dotted underline-offset-4 hover:bg-line"
      >
        {t({ comment: 'A table column: Q1 is question 1', message: `Q${number}` })}
      </button>
      <span
        ref={popupRef}
        id={tooltipId}
        role="tooltip"
        data-open={isOpen}
        style={
          placement ? { top: placement.top, left: placement.left, maxWidth: placement.width } : { top: 0, left: 0 }
        }
        className="tooltip pointer-events-none fixed z-50 w-max max-w-[min(20rem,calc(100vw-1rem))] rounded-md bg-surface-inverse px-3 py-2 text-start text-sm font-normal wrap-anywhere whitespace-normal text-white normal-case shadow-lg"
      >
        <MathText text={text} />
      </span>
    </>
  );
}
