import { cva } from 'class-variance-authority';

// Its own module, without cn (tailwind-merge): the error screen of the entry chunk uses it.
/** The look of a button, also for links that act as one (`<Link className={buttonVariants(...)}>`). */
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
      },
      size: {
        md: 'px-4 py-2.5 text-sm',
        sm: 'px-3 py-1.5 text-sm',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);
