import { useLingui } from '@lingui/react/macro';
import { Download, Eraser, Pencil, Trash2 } from 'lucide-react';
import { BRUSH_SIZE_CHOICES, DEFAULT_BRUSH_SIZE, type Brush, type BrushAction } from './brush.ts';
import type { WhiteboardStatus } from './whiteboard-engine.ts';
import { formatNumber } from '../../lib/format.ts';
import { HistoryButtons } from '../../components/drawing/history-buttons.tsx';
import { ColourControl, WidthControl } from '../../components/drawing/pen-controls.tsx';
import { Group, ToolButton } from '../../components/drawing/tool-controls.tsx';

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
        <ColourControl
          label={t`Colour`}
          accessibleLabel={t`Brush colour`}
          value={brush.colour}
          onChange={(colour) => onBrushChange({ type: 'colour', colour })}
        />
        <WidthControl
          label={t`Size`}
          accessibleLabel={t`Brush size`}
          value={brush.size}
          choices={BRUSH_SIZE_CHOICES}
          optionLabel={(choice) => {
            const size = formatNumber(choice);
            return choice === DEFAULT_BRUSH_SIZE
              ? t({ comment: 'A brush size, in pixels', message: `${size} (default)` })
              : size;
          }}
          onChange={(size) => onBrushChange({ type: 'size', size })}
        />
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
