import { cva, type VariantProps } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** A screen's header: its title and actions side by side (wrapping on a phone), or a centred message. */
export const pageHeaderVariants = cva('flex gap-4', {
  variants: {
    align: {
      start: 'flex-wrap items-end justify-between',
      /** A screen that is only a message ("Nothing to preview"): no actions beside it. */
      center: 'flex-col items-center text-center',
    },
  },
  defaultVariants: { align: 'start' },
});

/** A screen's h1, the sentence under it and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
  align,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
} & VariantProps<typeof pageHeaderVariants>) {
  return (
    <div className={cn(pageHeaderVariants({ align }), className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold wrap-anywhere text-fg">{title}</h1>
        {description ? <p className="mt-1 text-muted">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
