import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/** The toolbar's own buttons: not those of a dialog it opened (a question is its own tab order). */
const buttonsOf = (toolbar: HTMLElement | null): HTMLButtonElement[] =>
  Array.from(toolbar?.querySelectorAll('button') ?? []).filter((button) => !button.closest('dialog'));

/**
 * role="toolbar" with one tab stop among its buttons (roving tabindex, WAI-ARIA's toolbar
 * pattern): Left/Right (swapped in right-to-left), Home and End move between them. Fields in it
 * (a colour, a width) keep their own tab stops: their arrow keys are theirs.
 */
export function Toolbar({
  label,
  controls,
  className,
  children,
}: {
  label: string;
  /** The id of what the toolbar acts on (a text area). */
  controls?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);

  // After every render: buttons come and go (the drawing tools with the pen).
  useEffect(() => {
    const buttons = buttonsOf(ref.current);
    const current = Math.min(active, buttons.length - 1);
    buttons.forEach((button, index) => {
      button.tabIndex = index === current ? 0 : -1;
    });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = buttonsOf(ref.current);
    // From the focused button; keys in a field of the toolbar (a select's arrows) or in a dialog it
    // opened are theirs.
    const from = buttons.findIndex((button) => button === event.currentTarget.ownerDocument.activeElement);
    if (from < 0) return;
    const isRtl = ref.current?.closest('[dir]')?.getAttribute('dir') === 'rtl';
    const step = { ArrowRight: isRtl ? -1 : 1, ArrowLeft: isRtl ? 1 : -1 }[event.key];
    let next: number;
    if (step !== undefined) next = (from + step + buttons.length) % buttons.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = buttons.length - 1;
    else return;
    event.preventDefault();
    setActive(next);
    buttons[next]?.focus();
  };

  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label={label}
      aria-controls={controls}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        const index = buttonsOf(ref.current).findIndex((button) => button === (event.target as Element));
        if (index >= 0 && index !== active) setActive(index);
      }}
      className={className}
    >
      {children}
    </div>
  );
}
