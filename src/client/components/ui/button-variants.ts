import { cva } from 'class-variance-authority';

// Its own module, without cn: the error screen of the entry chunk uses it.
/**
 * The look of a button, also for links that act as one (`<Link className={buttonVariants(...)}>`).
 * A caller's classes are added, never merged (`cn`): a different padding or look is a variant here.
 */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed',
  {
    variants: {
      variant: {
        primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/60',
        secondary: 'border border-line-strong bg-surface text-fg hover:bg-surface-sunken',
        ghost: 'text-muted hover:bg-surface-muted',
        /** Something that cannot be undone (delete, clear) or ends something (leave a meeting). */
        danger: 'bg-danger text-white hover:bg-danger-strong disabled:bg-danger/60',
        /** A delete beside each item of a list: red text, no fill until hovered. */
        'danger-ghost': 'text-danger hover:bg-danger-soft',
      },
      size: {
        md: 'px-4 py-2.5 text-sm',
        sm: 'px-3 py-1.5 text-sm',
        /** A row of tools beside content (a viewer's, a task's). */
        compact: 'px-3 py-2 text-sm',
        /** The one action of a big screen (a live game's Start, Next). */
        lg: 'px-8 py-3 text-lg',
        /** Padding and text size from the caller's classes. */
        custom: '',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);
