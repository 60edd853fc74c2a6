/** A small definition list of profile facts, shown on the dashboard homes. */
export function ProfileSummary({ facts }: { facts: [label: string, value: string][] }) {
  return (
    <dl className="grid gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-2">
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
          <dd className="mt-1 truncate text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
