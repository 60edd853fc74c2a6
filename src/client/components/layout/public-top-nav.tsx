import { Link } from 'react-router';
import { BrandLink } from '../ui/brand-link.tsx';

/** Top navigation of the auth screens: product name home, Login to the role chooser. */
export function PublicTopNav() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <BrandLink />
        <Link to="/auth" className="rounded-md px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50">
          Login
        </Link>
      </nav>
    </header>
  );
}
