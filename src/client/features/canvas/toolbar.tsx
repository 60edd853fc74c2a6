import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Eraser, Pencil, Redo2, Trash2, Undo2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { BRUSH_SIZE_CHOICES, DEFAULT_BRUSH_SIZE, type Brush, type BrushAction } from './brush.ts';
import type { WhiteboardStatus } from './whiteboard-engine.ts';
import { formatNumber } from '../../lib/format.ts';

/**
 * A tool tile. Phones: the icon above a short visible caption, 48 px tall
 * (touch has no `title` tooltips, and icons alone leave Draw, Erase, Clear and
 * Save to guesswork); from sm: icon and label side by side.
 */
const CONTROL =
  'inline-flex h-12 min-w-12 flex-col items-center justify-center gap-1 rounded-lg border px-1 text-[11px] leading-none font-semibold transition-colors sm:h-10 sm:min-w-0 sm:flex-row sm:gap-2 sm:px-3 sm:text-sm';

function ToolButton(props: {
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

function Group({
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

/**
 * SPEC §2 Canvas tools: Draw, brush colour, brush size, Clear, Undo, Redo,
 * Erase and Save. Two rows on a 390 px phone (the brush; then history, Save
 * and Clear). Clear is last and pushed to the far end, away from Save.
 */
export function Toolbar(props: {
  brush: Brush;
  status: WhiteboardStatus;
  onBrushChange: (action: BrushAction) => void;
  onUndo: () => void;
  onRedo: () => void;
  onClear: () => void;
  onSave: () => void;
}) {
  const { brush, status, onBrushChange } = props;
  const { t } = useLingui();
  return (
    // grow, not flex-1: beside the title while it fits, on its own full-width line when not.
    <div className="flex grow flex-wrap items-center gap-x-4 gap-y-2">
      <Group label={t`Brush`}>
        <ToolButton
          label={t`Draw`}
          icon={Pencil}
          isPressed={brush.mode === 'draw'}
          onClick={() => onBrushChange({ type: 'draw' })}
        />
        <ToolButton
          label={t`Erase`}
          icon={Eraser}
          isPressed={brush.mode === 'erase'}
          onClick={() => onBrushChange({ type: 'erase' })}
        />
        <label
          className={`${CONTROL} cursor-pointer border-line-strong bg-surface text-fg hover:bg-surface-sunken max-sm:flex-col-reverse sm:px-2`}
        >
          <span>
            <Trans>Colour</Trans>
          </span>
          <input
            type="color"
            aria-label={t`Brush colour`}
            value={brush.colour}
            onChange={(event) => onBrushChange({ type: 'colour', colour: event.target.value })}
            className="h-6 w-8 cursor-pointer rounded border border-line-strong bg-surface p-0.5 sm:h-7"
          />
        </label>
        <label className={`${CONTROL} border-line-strong bg-surface text-fg max-sm:flex-col-reverse sm:ps-2 sm:pe-1`}>
          <span>
            <Trans>Size</Trans>
          </span>
          <select
            aria-label={t`Brush size`}
            value={brush.size}
            onChange={(event) => onBrushChange({ type: 'size', size: Number(event.target.value) })}
            className="h-6 rounded-md bg-surface px-0.5 text-xs font-normal sm:h-8 sm:px-1 sm:text-sm"
          >
            {BRUSH_SIZE_CHOICES.map((choice) => {
              const size = formatNumber(choice);
              return (
                <option key={choice} value={choice}>
                  {choice === DEFAULT_BRUSH_SIZE
                    ? t({ comment: 'A brush size, in pixels', message: `${size} (default)` })
                    : size}
                </option>
              );
            })}
          </select>
        </label>
      </Group>
      <Group label={t({ comment: "The toolbar's group of Undo and Redo", message: 'History' })}>
        <ToolButton
          label={t`Undo`}
          icon={Undo2}
          isMirrored
          isDisabled={!status.canUndo}
          shortcut="Control+Z Meta+Z"
          onClick={props.onUndo}
        />
        <ToolButton
          label={t`Redo`}
          icon={Redo2}
          isMirrored
          isDisabled={!status.canRedo}
          shortcut="Control+Shift+Z Meta+Shift+Z Control+Y"
          onClick={props.onRedo}
        />
      </Group>
      {/* Clear empties the drawing (after a confirmation): at the far end, not beside Save. */}
      <Group label={t({ comment: "The toolbar's group of Save and Clear", message: 'Drawing' })} className="grow">
        <ToolButton
          label={t({ comment: 'Downloads the drawing as a picture', message: 'Save' })}
          icon={Download}
          onClick={props.onSave}
        />
        <ToolButton
          label={t({ comment: 'Empties the whiteboard', message: 'Clear' })}
          icon={Trash2}
          tone="danger"
          onClick={props.onClear}
          className="ms-auto"
        />
      </Group>
    </div>
  );
}
