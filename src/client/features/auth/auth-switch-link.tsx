import { Link } from 'react-router';

/** The line under an auth form that leads to its counterpart (login <-> register). */
export function AuthSwitchLink({ question, to, label }: { question: string; to: string; label: string }) {
  return (
    <>
      {question}{' '}
      <Link className="font-semibold text-brand-700 underline" to={to}>
        {label}
      </Link>
    </>
  );
}
