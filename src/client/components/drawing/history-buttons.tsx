import { useLingui } from '@lingui/react/macro';
import { Redo2, Undo2 } from 'lucide-react';
import { ToolButton } from './tool-controls.tsx';

/**
 * The Undo and Redo tiles, with their keyboard shortcuts: the personal whiteboard's toolbar
 * (SPEC §2) and the class board's (issue 35) put the same pair in their history group.
 */
export function HistoryButtons(props: { canUndo: boolean; canRedo: boolean; onUndo: () => void; onRedo: () => void }) {
  const { t } = useLingui();
  return (
    <>
      <ToolButton
        label={t`Undo`}
        icon={Undo2}
        isMirrored
        isDisabled={!props.canUndo}
        shortcut="Control+Z Meta+Z"
        onClick={props.onUndo}
      />
      <ToolButton
        label={t`Redo`}
        icon={Redo2}
        isMirrored
        isDisabled={!props.canRedo}
        shortcut="Control+Shift+Z Meta+Shift+Z Control+Y"
        onClick={props.onRedo}
      />
    </>
  );
}
