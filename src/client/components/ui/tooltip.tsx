import { useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { TOOLTIP } from '#shared/constants';

type TooltipProps = {
  label: string;
  /** Tooltips can be turned off (e.g. when the side menu shows titles). */
  isEnabled?: boolean;
  /** 'end': beside the trigger on its inline end (its right; its left on a right-to-left page). */
  placement?: 'end' | 'bottom';
  children: (describedBy: string | undefined) => ReactElement;
};

/**
 * Shows on hover and keyboard focus with no delay, fades in 200 ms and out
 * 500 ms (CSS .tooltip), sits 10 px from its trigger (SPEC §9). Not on a tap:
 * a touch has no "leave", so the tooltip would linger over the page.
 */
export function Tooltip({ label, isEnabled = true, placement = 'end', children }: TooltipProps): ReactNode {
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  // The focus a tap gives its target is not keyboard focus.
  const isTouchRef = useRef(false);
  if (!isEnabled) return children(undefined);
  const position =
    placement === 'end'
      ? { insetInlineStart: `calc(100% + ${TOOLTIP.offsetPx}px)`, top: '50%', transform: 'translateY(-50%)' }
      : { top: `calc(100% + ${TOOLTIP.offsetPx}px)`, left: '50%', transform: 'translateX(-50%)' };
  return (
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- listens to the focusable control it wraps (events bubble); the span itself is no control
    <span
      className="relative inline-flex"
      onPointerEnter={(event) => {
        if (event.pointerType !== 'touch') setIsOpen(true);
      }}
      onPointerLeave={(event) => {
        if (event.pointerType !== 'touch') setIsOpen(false);
      }}
      onPointerDown={(event) => {
        isTouchRef.current = event.pointerType === 'touch';
        if (isTouchRef.current) setIsOpen(false);
      }}
      onFocus={() => {
        if (!isTouchRef.current) setIsOpen(true);
      }}
      onBlur={() => {
        isTouchRef.current = false;
        setIsOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setIsOpen(false);
      }}
    >
      {children(id)}
      <span
        id={id}
        role="tooltip"
        data-open={isOpen}
        style={position}
        className="tooltip pointer-events-none absolute z-50 rounded-md bg-surface-inverse px-2.5 py-1.5 text-xs font-medium whitespace-nowrap text-white shadow-lg"
      >
        {label}
      </span>
    </span>
  );
}
