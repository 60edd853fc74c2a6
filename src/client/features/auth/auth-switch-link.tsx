import { Link, useLocation } from 'react-router';
import { returnToOf } from '../../lib/session.ts';

/**
 * The line under an auth form that leads to its counterpart (login <-> register).
 * It carries the address the visitor was on their way to (a meeting invite, say),
 * so registering first still ends there.
 */
export function AuthSwitchLink({ question, to, label }: { question: string; to: string; label: string }) {
  const returnTo = returnToOf(useLocation().state);
  return (
    <>
      {question}{' '}
      <Link className="font-semibold text-brand-700 underline" to={to} state={returnTo ? { returnTo } : undefined}>
        {label}
      </Link>
    </>
  );
}
