import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentPropsWithRef } from 'react';
import { cn } from '../../lib/cn.ts';

/** A bordered panel: content on a surface, an empty state, or a failure with its retry. */
export const cardVariants = cva('border', {
  variants: {
    tone: {
      default: 'border-line bg-surface shadow-sm',
      /** Set aside (an archived class): the page's own fill. */
      sunken: 'border-line bg-surface-sunken shadow-sm',
      /** Good news on a surface (returned work's grade): a green edge. */
      success: 'border-success/30 bg-surface shadow-sm',
      /** "Nothing here yet": dashed; on its own (no padding given) roomy and centred. */
      empty: 'border-dashed border-line-strong bg-surface text-muted',
      danger: 'border-danger/25 bg-danger-soft p-5 text-danger-strong',
    },
    padding: {
      none: '',
      sm: 'p-5',
      md: 'p-4 sm:p-6',
      lg: 'p-5 sm:p-8',
    },
    /** 2xl: a panel that is the screen's main content (a form, a result, a quiz). */
    rounded: { xl: 'rounded-xl', '2xl': 'rounded-2xl' },
  },
  compoundVariants: [{ tone: 'empty', padding: 'none', className: 'p-8 text-center' }],
  defaultVariants: { tone: 'default', padding: 'none', rounded: 'xl' },
});

export function Card({
  tone,
  padding,
  rounded,
  className,
  ...props
}: ComponentPropsWithRef<'div'> & VariantProps<typeof cardVariants>) {
  return <div className={cn(cardVariants({ tone, padding, rounded }), className)} {...props} />;
}
