import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/*
 * The whiteboard's tool tiles and their groups: the personal whiteboard's toolbar (SPEC §4) and
 * the class board's (issue 35) are built of the same ones.
 */

/**
 * A tool tile. Phones: the icon above a short visible caption, 48 px tall
 * (touch has no `title` tooltips, and icons alone leave Draw, Erase, Clear and
 * Save to guesswork); from sm: icon and label side by side.
 */
export const CONTROL =
  'inline-flex h-12 min-w-12 flex-col items-center justify-center gap-1 rounded-lg border px-1 text-[11px] leading-none font-semibold transition-colors sm:h-10 sm:min-w-0 sm:flex-row sm:gap-2 sm:px-3 sm:text-sm';

export function ToolButton(props: {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  isPressed?: boolean;
  isDisabled?: boolean;
  shortcut?: string;
  /** An icon that points back or forward (undo, redo): it turns in a right-to-left page. */
  isMirrored?: boolean;
  tone?: 'danger';
  className?: string;
}) {
  const { label, icon: Icon, isPressed, isDisabled } = props;
  const colours = isPressed
    ? 'border-brand-600 bg-brand-600 text-white hover:bg-brand-700'
    : props.tone === 'danger'
      ? 'border-line-strong bg-surface text-danger hover:bg-danger-soft'
      : 'border-line-strong bg-surface text-fg hover:bg-surface-sunken';
  return (
    <button
      type="button"
      // aria-disabled, not disabled: a disabled button would drop the keyboard focus.
      aria-disabled={isDisabled || undefined}
      aria-pressed={isPressed}
      aria-keyshortcuts={props.shortcut}
      title={label}
      onClick={() => {
        if (!isDisabled) props.onClick();
      }}
      className={`${CONTROL} ${colours} aria-disabled:cursor-not-allowed aria-disabled:opacity-50 ${props.className ?? ''}`}
    >
      <Icon className={`size-5 sm:size-4 ${props.isMirrored ? 'rtl:-scale-x-100' : ''}`} aria-hidden="true" />
      <span>{label}</span>
    </button>
  );
}

export function Group({
  label,
  className = 'flex-wrap',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="group" aria-label={label} className={`flex items-center gap-1 sm:gap-1.5 ${className}`}>
      {children}
    </div>
  );
}
