import { useLingui } from '@lingui/react/macro';
import { Eraser, FileDown, ImageDown, MousePointer2, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Toolbar } from '../../components/ui/toolbar.tsx';
import { formatNumber } from '../../lib/format.ts';
import { isHexColour } from '../../components/drawing/pen-input.ts';
import { HistoryButtons } from '../../components/drawing/history-buttons.tsx';
import { ColourControl, WidthControl } from '../../components/drawing/pen-controls.tsx';
import { Group, ToolButton } from '../../components/drawing/tool-controls.tsx';
import { BOARD_WIDTHS, type BoardTool } from './board-canvas.tsx';

/**
 * A phone's tiles: icons only, 40 px square (the captions stay their names, for a screen reader;
 * a tile's tooltip is its name as at a desk), so the tools take two rows and the sheet the room.
 */
const COMPACT_ON_PHONES = 'flex-wrap max-sm:[&>*]:h-10 max-sm:[&>*]:min-w-10 max-sm:[&>*>span]:sr-only';

/**
 * The class board's tools (issue 35), the personal whiteboard's tiles: pen and eraser, colour and
 * width, this person's undo and redo, clearing the page (asked first, saying whether this person's undo brings it back), the
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
  /** Clears the page asked about: the one on show when the question opened, whichever is on show now. */
  onClearPage: (pageId: string) => void;
  pageId: string;
  pageName: string;
  /**
   * Whether this person's undo brings a clear of the page on show back: a teacher's always, a
   * student's only when every stroke on it is theirs (their undo may not bring back others').
   */
  canUndoClear: boolean;
  isExporting: boolean;
  onExportPng: () => void;
  onExportPdf: () => void;
  showCursors: boolean;
  onShowCursorsChange: (show: boolean) => void;
}) {
  const { tool, onToolChange, canDraw } = props;
  const { t } = useLingui();
  // The page the question is about, taken as it opens: a page deleted or moved meanwhile is not another cleared.
  const [askingClear, setAskingClear] = useState<{ pageId: string; pageName: string; canUndo: boolean } | null>(null);
  return (
    <Toolbar label={t`Board tools`} className="flex flex-wrap items-center gap-x-2 gap-y-1.5 sm:gap-x-4 sm:gap-y-2">
      {canDraw ? (
        <>
          <Group label={t`Pen`} className={COMPACT_ON_PHONES}>
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
          <Group
            label={t({ comment: "The class board toolbar's group of Undo and Redo", message: 'Your changes' })}
            className={COMPACT_ON_PHONES}
          >
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
              onClick={() =>
                setAskingClear({ pageId: props.pageId, pageName: props.pageName, canUndo: props.canUndoClear })
              }
            />
          </Group>
        </>
      ) : null}
      <Group label={t`Export`} className={COMPACT_ON_PHONES}>
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
      {askingClear ? (
        <ClearPageQuestion
          pageName={askingClear.pageName}
          canUndo={askingClear.canUndo}
          onConfirm={() => props.onClearPage(askingClear.pageId)}
          onClose={() => setAskingClear(null)}
        />
      ) : null}
    </Toolbar>
  );
}

function ClearPageQuestion(props: { pageName: string; canUndo: boolean; onConfirm(): void; onClose(): void }) {
  const { t } = useLingui();
  const pageName = props.pageName;
  return (
    <ConfirmDialog
      title={t`Clear the page “${pageName}”?`}
      description={
        props.canUndo
          ? t`Every stroke on this page is removed, for everyone on the board. Undo brings them back.`
          : t`Every stroke on this page is removed, for everyone on the board. Some are other people’s: your Undo cannot bring this back.`
      }
      confirmLabel={t`Clear page`}
      widthClassName="w-[min(26rem,calc(100%-2rem))]"
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  );
}
