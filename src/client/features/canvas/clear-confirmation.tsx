import { useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';

/**
 * "Clear the whiteboard?" before Clear empties a drawing (decision 011: SPEC §4 makes
 * Clear empty the history, so it cannot be undone).
 */
export function ClearConfirmation({ onConfirm, onClose }: { onConfirm(): void; onClose(): void }) {
  const { t } = useLingui();
  return (
    <ConfirmDialog
      title={t`Clear the whiteboard?`}
      description={t`Your whole drawing and its undo history will be removed. This cannot be undone. Use Save first if you want to keep a copy.`}
      confirmLabel={t`Clear drawing`}
      widthClassName="w-[min(26rem,calc(100%-2rem))]"
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
