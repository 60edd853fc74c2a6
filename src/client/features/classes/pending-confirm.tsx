import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';

/** A question before a change to a class, and the change. */
export type Pending = { title: string; description: string; confirmLabel: string; run(): void };

export function PendingConfirm({ pending, onClose }: { pending: Pending; onClose(): void }) {
  return (
    <ConfirmDialog
      title={pending.title}
      description={pending.description}
      confirmLabel={pending.confirmLabel}
      widthClassName="w-[min(28rem,calc(100%-2rem))]"
      onConfirm={pending.run}
      onClose={onClose}
    />
  );
}
