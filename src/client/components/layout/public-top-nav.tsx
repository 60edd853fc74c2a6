import { msg } from '@lingui/core/macro';
import { LinguiContext } from '@lingui/react';
import { useContext } from 'react';
import { Link } from 'react-router';
import { BrandLink } from '../ui/brand-link.tsx';

const MAIN = msg({ comment: 'The main navigation landmark', message: 'Main' });
const LOGIN = msg`Login`;

/** The header's words, given by a screen outside the provider that has them in the active locale. */
export type PublicTopNavTexts = { navigation: string; login: string };

/**
 * Header of the public screens (landing, auth, errors): product name home, Login to the role chooser.
 * Translated where the translation layer's provider is (the auth pages); the router's error screen
 * renders it outside the provider and gives its words (`texts`, in the active locale). Elsewhere
 * outside the provider (the landing page, prerendered) it is English: it reads the provider's
 * context, which is empty there, instead of useLingui (which would throw).
 */
export function PublicTopNav({ texts }: { texts?: PublicTopNavTexts | undefined }) {
  const lingui = useContext(LinguiContext);
  return (
    <header className="border-b border-line bg-surface">
      <nav
        aria-label={texts?.navigation ?? (lingui ? lingui._(MAIN) : 'Main')}
        className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6"
      >
        <BrandLink />
        <Link
          to="/auth"
          className="rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-brand-200 transition-colors hover:bg-brand-50"
        >
          {texts?.login ?? (lingui ? lingui._(LOGIN) : 'Login')}
        </Link>
      </nav>
    </header>
  );
}
