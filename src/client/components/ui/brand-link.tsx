import { Link } from 'react-router';
import { PRODUCT_NAME } from '#shared/constants';

/** Product name linking home, as every header shows it. */
export function BrandLink({ isCompact = false }: { isCompact?: boolean }) {
  return (
    <Link
      to="/"
      aria-label={PRODUCT_NAME}
      className="flex items-center gap-2 rounded-md text-lg font-bold text-brand-700"
    >
      <img src="/favicon.svg" alt="" width={28} height={28} className="size-7 shrink-0" />
      <span className={isCompact ? 'hidden sm:inline' : undefined}>{PRODUCT_NAME}</span>
    </Link>
  );
}
