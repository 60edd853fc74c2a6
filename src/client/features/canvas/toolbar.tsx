import { Download, Eraser, Pencil, Redo2, Trash2, Undo2, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { BRUSH_SIZE_CHOICES, DEFAULT_BRUSH_SIZE, type Brush, type BrushAction } from './brush.ts';
import type { WhiteboardStatus } from './whiteboard-engine.ts';

const CONTROL = 'inline-flex h-10 items-center gap-2 rounded-lg border text-sm font-semibold transition-colors';

function ToolButton(props: {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  isPressed?: boolean;
  isDisabled?: boolean;
  shortcut?: string;
  tone?: 'danger';
}) {
  const { label, icon: Icon, isPressed, isDisabled } = props;
  const colours = isPressed
    ? 'border-brand-600 bg-brand-600 text-white hover:bg-brand-700'
    : props.tone === 'danger'
      ? 'border-slate-300 bg-white text-red-700 hover:bg-red-50'
      : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50';
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
      className={`${CONTROL} px-2.5 sm:px-3 ${colours} aria-disabled:cursor-not-allowed aria-disabled:opacity-50`}
    >
      <Icon className="size-5 sm:size-4" aria-hidden="true" />
      <span className="max-sm:sr-only">{label}</span>
    </button>
  );
}

function Group({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap items-center gap-1.5">
      {children}
    </div>
  );
}

/** SPEC §2 Canvas tools: Draw, brush colour, brush size, Clear, Undo, Redo, Erase and Save. */
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
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <Group label="Brush">
        <ToolButton
          label="Draw"
          icon={Pencil}
          isPressed={brush.mode === 'draw'}
          onClick={() => onBrushChange({ type: 'draw' })}
        />
        <ToolButton
          label="Erase"
          icon={Eraser}
          isPressed={brush.mode === 'erase'}
          onClick={() => onBrushChange({ type: 'erase' })}
        />
        <label className={`${CONTROL} cursor-pointer border-slate-300 bg-white px-2 text-slate-800 hover:bg-slate-50`}>
          <span className="max-sm:sr-only">Colour</span>
          <input
            type="color"
            aria-label="Brush colour"
            value={brush.colour}
            onChange={(event) => onBrushChange({ type: 'colour', colour: event.target.value })}
            className="h-7 w-8 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
          />
        </label>
        <label className={`${CONTROL} border-slate-300 bg-white pl-2 pr-1 text-slate-800`}>
          <span className="max-sm:sr-only">Size</span>
          <select
            aria-label="Brush size"
            value={brush.size}
            onChange={(event) => onBrushChange({ type: 'size', size: Number(event.target.value) })}
            className="h-8 rounded-md bg-white px-1 text-sm font-normal"
          >
            {BRUSH_SIZE_CHOICES.map((size) => (
              <option key={size} value={size}>
                {size === DEFAULT_BRUSH_SIZE ? `${size} (default)` : size}
              </option>
            ))}
          </select>
        </label>
      </Group>
      <Group label="History">
        <ToolButton
          label="Undo"
          icon={Undo2}
          isDisabled={!status.canUndo}
          shortcut="Control+Z Meta+Z"
          onClick={props.onUndo}
        />
        <ToolButton
          label="Redo"
          icon={Redo2}
          isDisabled={!status.canRedo}
          shortcut="Control+Shift+Z Meta+Shift+Z Control+Y"
          onClick={props.onRedo}
        />
      </Group>
      <Group label="Drawing">
        <ToolButton label="Clear" icon={Trash2} tone="danger" onClick={props.onClear} />
        <ToolButton label="Save" icon={Download} onClick={props.onSave} />
      </Group>
    </div>
  );
}
