import { useLingui } from '@lingui/react/macro';
import { Eraser, FileDown, ImageDown, MousePointer2, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { formatNumber } from '../../lib/format.ts';
import { isHexColour } from '../../components/drawing/pen-input.ts';
import { HistoryButtons } from '../../components/drawing/history-buttons.tsx';
import { ColourControl, WidthControl } from '../../components/drawing/pen-controls.tsx';
import { Group, ToolButton } from '../../components/drawing/tool-controls.tsx';
import { BOARD_WIDTHS, type BoardTool } from './board-canvas.tsx';

/**
 * The class board's tools (issue 35), the personal whiteboard's tiles: pen and eraser, colour and
 * width, this person's undo and redo, clearing the page (asked first; undo brings it back), the
 * page as a PNG and the board as a PDF, and the others' cursors on or off. Without the pen the
 * drawing tools are left out: exporting and cursors stay.
 */
export function BoardToolbar(props: {
  tool: BoardTool;
  onToolChange: (tool: BoardTool) => void;
  canDraw: boolean;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onClearPage: () => void;
  pageName: string;
  isExporting: boolean;
  onExportPng: () => void;
  onExportPdf: () => void;
  showCursors: boolean;
  onShowCursorsChange: (show: boolean) => void;
}) {
  const { tool, onToolChange, canDraw } = props;
  const { t } = useLingui();
  const [isAskingClear, setIsAskingClear] = useState(false);
  const pageName = props.pageName;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" role="toolbar" aria-label={t`Board tools`}>
      {canDraw ? (
        <>
          <Group label={t`Pen`}>
            <ToolButton
              label={t`Draw`}
              icon={Pencil}
              isPressed={tool.mode === 'pen'}
              onClick={() => onToolChange({ ...tool, mode: 'pen' })}
            />
            <ToolButton
              label={t({ comment: 'The class board tool that removes whole strokes', message: 'Erase' })}
              icon={Eraser}
              isPressed={tool.mode === 'eraser'}
              onClick={() => onToolChange({ ...tool, mode: 'eraser' })}
            />
            <ColourControl
              label={t`Colour`}
              accessibleLabel={t`Pen colour`}
              value={tool.colour}
              onChange={(colour) => {
                if (isHexColour(colour)) onToolChange({ ...tool, mode: 'pen', colour: colour.toLowerCase() });
              }}
            />
            <WidthControl
              label={t`Width`}
              accessibleLabel={t`Pen width`}
              value={tool.width}
              choices={BOARD_WIDTHS}
              optionLabel={formatNumber}
              onChange={(width) => onToolChange({ ...tool, width })}
            />
          </Group>
          <Group label={t({ comment: "The class board toolbar's group of Undo and Redo", message: 'Your changes' })}>
            <HistoryButtons
              canUndo={props.canUndo}
              canRedo={props.canRedo}
              onUndo={props.onUndo}
              onRedo={props.onRedo}
            />
            <ToolButton
              label={t({ comment: 'Removes every stroke of the class board page on show', message: 'Clear page' })}
              icon={Trash2}
              tone="danger"
              onClick={() => setIsAskingClear(true)}
            />
          </Group>
        </>
      ) : null}
      <Group label={t`Export`}>
        <ToolButton
          label={t({ comment: 'Downloads the class board page on show as a picture', message: 'Page as PNG' })}
          icon={ImageDown}
          isDisabled={props.isExporting}
          onClick={props.onExportPng}
        />
        <ToolButton
          label={t({ comment: 'Downloads every page of the class board as one PDF', message: 'Board as PDF' })}
          icon={FileDown}
          isDisabled={props.isExporting}
          onClick={props.onExportPdf}
        />
        <ToolButton
          label={t`Cursors`}
          icon={MousePointer2}
          isPressed={props.showCursors}
          onClick={() => props.onShowCursorsChange(!props.showCursors)}
        />
      </Group>
      {isAskingClear ? (
        <ConfirmDialog
          title={t`Clear the page “${pageName}”?`}
          description={t`Every stroke on this page is removed, for everyone on the board. Undo brings them back.`}
          confirmLabel={t`Clear page`}
          widthClassName="w-[min(26rem,calc(100%-2rem))]"
          onConfirm={props.onClearPage}
          onClose={() => setIsAskingClear(false)}
        />
      ) : null}
    </div>
  );
}
