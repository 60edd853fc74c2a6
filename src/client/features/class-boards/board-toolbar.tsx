import { Trans, useLingui } from '@lingui/react/macro';
import { Eraser, FileDown, ImageDown, MousePointer2, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { formatNumber } from '../../lib/format.ts';
import { isHexColour } from '../../components/drawing/pen-input.ts';
import { HistoryButtons } from '../../components/drawing/history-buttons.tsx';
import { CONTROL, Group, ToolButton } from '../../components/drawing/tool-controls.tsx';
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
            <label
              className={`${CONTROL} cursor-pointer border-line-strong bg-surface text-fg hover:bg-surface-sunken max-sm:flex-col-reverse sm:px-2`}
            >
              <span>
                <Trans>Colour</Trans>
              </span>
              <input
                type="color"
                aria-label={t`Pen colour`}
                value={tool.colour}
                onChange={(event) => {
                  if (isHexColour(event.target.value))
                    onToolChange({ ...tool, mode: 'pen', colour: event.target.value.toLowerCase() });
                }}
                className="h-6 w-8 cursor-pointer rounded border border-line-strong bg-surface p-0.5 sm:h-7"
              />
            </label>
            <label
              className={`${CONTROL} border-line-strong bg-surface text-fg max-sm:flex-col-reverse sm:ps-2 sm:pe-1`}
            >
              <span>
                <Trans>Width</Trans>
              </span>
              <select
                aria-label={t`Pen width`}
                value={tool.width}
                onChange={(event) => onToolChange({ ...tool, width: Number(event.target.value) })}
                className="h-6 rounded-md bg-surface px-0.5 text-xs font-normal sm:h-8 sm:px-1 sm:text-sm"
              >
                {BOARD_WIDTHS.map((choice) => (
                  <option key={choice} value={choice}>
                    {formatNumber(choice)}
                  </option>
                ))}
              </select>
            </label>
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
