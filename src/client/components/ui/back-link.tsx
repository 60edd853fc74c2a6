import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn.ts';

/** The link back to a screen's parent list, above its title: one look on every screen. */
export function BackLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:underline',
        className,
      )}
    >
      <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden="true" />
      {children}
    </Link>
  );
}
