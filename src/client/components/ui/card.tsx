import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentPropsWithRef } from 'react';
import { cn } from '../../lib/cn.ts';

/** A bordered panel: content on a surface, an empty state, or a failure with its retry. */
export const cardVariants = cva('rounded-xl border', {
  variants: {
    tone: {
      default: 'border-line bg-surface shadow-sm',
      /** "Nothing here yet": dashed, centred. */
      empty: 'border-dashed border-line-strong bg-surface p-8 text-center text-muted',
      danger: 'border-danger/25 bg-danger-soft p-5 text-danger-strong',
    },
    padding: {
      none: '',
      md: 'p-4 sm:p-6',
      lg: 'p-5 sm:p-8',
    },
  },
  defaultVariants: { tone: 'default', padding: 'none' },
});

export function Card({
  tone,
  padding,
  className,
  ...props
}: ComponentPropsWithRef<'div'> & VariantProps<typeof cardVariants>) {
  return <div className={cn(cardVariants({ tone, padding }), className)} {...props} />;
}
