import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Eraser, Pencil, Trash2 } from 'lucide-react';
import { BRUSH_SIZE_CHOICES, DEFAULT_BRUSH_SIZE, type Brush, type BrushAction } from './brush.ts';
import type { WhiteboardStatus } from './whiteboard-engine.ts';
import { formatNumber } from '../../lib/format.ts';
import { HistoryButtons } from '../../components/drawing/history-buttons.tsx';
import { CONTROL, Group, ToolButton } from '../../components/drawing/tool-controls.tsx';

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
        <HistoryButtons canUndo={status.canUndo} canRedo={status.canRedo} onUndo={props.onUndo} onRedo={props.onRedo} />
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
