import { Trans } from '@lingui/react/macro';
import { KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

/**
 * A small definition list of profile facts, shown on the dashboard homes, with the way to
 * the account page (password, sign out of all devices; decision 017).
 */
export function ProfileSummary({
  facts,
  accountPath,
}: {
  facts: [label: string, value: string][];
  accountPath: string;
}) {
  return (
    <div className={cn(cardVariants(), 'p-5')}>
      <dl className="grid gap-4 sm:grid-cols-2">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</dt>
            <dd className="mt-1 truncate text-fg">{value}</dd>
          </div>
        ))}
      </dl>
      <Link
        to={accountPath}
        className="mt-4 inline-flex items-center gap-1.5 rounded text-sm font-semibold text-brand-700 hover:underline"
      >
        <KeyRound className="size-4" aria-hidden="true" />
        <Trans>Account: change password, sign out of all devices</Trans>
      </Link>
    </div>
  );
}
