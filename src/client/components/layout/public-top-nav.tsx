import { Link } from 'react-router';
import { BrandLink } from '../ui/brand-link.tsx';

/** Header of the public screens (landing, auth, errors): product name home, Login to the role chooser. */
export function PublicTopNav() {
  return (
    <header className="border-b border-line bg-surface">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <BrandLink />
        <Link
          to="/auth"
          className="rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-brand-200 transition-colors hover:bg-brand-50"
        >
          Login
        </Link>
      </nav>
    </header>
  );
}
