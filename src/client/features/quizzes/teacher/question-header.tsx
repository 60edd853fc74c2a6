import { useEffect, useId, useRef, useState } from 'react';
import { TOOLTIP } from '#shared/constants';

const EDGE_PX = 8;
const MAX_WIDTH_PX = 320;

type Placement = { top: number; left: number; width: number };

/**
 * A question column's header, "Q1", that shows the question text on hover,
 * keyboard focus or tap (SPEC §2 analytics). The shared Tooltip keeps its
 * label on one line and inside its parent; question text can be long and the
 * table scrolls, so this one wraps and is placed against the viewport.
 */
export function QuestionHeader({ number, text }: { number: number; text: string }) {
  const tooltipId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const [isOpen, setIsOpen] = useState(false);

  const open = () => {
    const rect = buttonRef.current?.getBoundingClientRect();
    if (!rect) return;
    const width = Math.min(MAX_WIDTH_PX, window.innerWidth - 2 * EDGE_PX);
    const centred = rect.left + rect.width / 2 - width / 2;
    const left = Math.min(Math.max(EDGE_PX, centred), window.innerWidth - width - EDGE_PX);
    setPlacement({ top: rect.bottom + TOOLTIP.offsetPx, left, width });
    setIsOpen(true);
  };
  const close = () => setIsOpen(false);

  // A fixed popup would drift from its header when anything scrolls: hide it instead.
  useEffect(() => {
    if (!isOpen) return;
    const hide = () => setIsOpen(false);
    window.addEventListener('scroll', hide, true);
    window.addEventListener('resize', hide);
    return () => {
      window.removeEventListener('scroll', hide, true);
      window.removeEventListener('resize', hide);
    };
  }, [isOpen]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-describedby={tooltipId}
        onMouseEnter={open}
        onMouseLeave={close}
        onFocus={open}
        onBlur={close}
        onClick={() => (isOpen ? close() : open())}
        onKeyDown={(event) => {
          if (event.key === 'Escape') close();
        }}
        className="rounded-md px-2 py-1 font-semibold text-slate-900 underline decoration-dotted underline-offset-4 hover:bg-slate-200"
      >
        Q{number}
      </button>
      <span
        id={tooltipId}
        role="tooltip"
        data-open={isOpen}
        style={
          placement ? { top: placement.top, left: placement.left, maxWidth: placement.width } : { top: 0, left: 0 }
        }
        className="tooltip pointer-events-none fixed z-50 w-max whitespace-normal break-words rounded-md bg-slate-900 px-3 py-2 text-left text-sm font-normal normal-case text-white shadow-lg"
      >
        {text}
      </span>
    </>
  );
}
