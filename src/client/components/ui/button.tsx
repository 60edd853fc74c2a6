import type { VariantProps } from 'class-variance-authority';
import type { ComponentPropsWithRef } from 'react';
import { cn } from '../../lib/cn.ts';
import { buttonVariants } from './button-variants.ts';

export { buttonVariants };

export type ButtonVariants = VariantProps<typeof buttonVariants>;

/** A button (type="button" unless told otherwise) in one of the variants; the caller's classes win. */
export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ComponentPropsWithRef<'button'> & ButtonVariants) {
  return <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
