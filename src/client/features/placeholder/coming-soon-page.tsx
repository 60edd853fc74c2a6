import { Construction } from 'lucide-react';

/**
 * A clearly labelled stand-in for a screen whose feature has not landed yet
 * (allowed by the foundation issue). Each use names the screen and its release.
 */
export function ComingSoonPage({
  title,
  release,
  isSection = false,
}: {
  title: string;
  release: string;
  isSection?: boolean;
}) {
  const Heading = isSection ? 'h2' : 'h1';
  return (
    <section aria-labelledby="coming-soon-title" className="mx-auto max-w-2xl">
      <Heading id="coming-soon-title" className={`font-bold text-slate-900 ${isSection ? 'text-xl' : 'text-2xl'}`}>
        {title}
      </Heading>
      <div className="mt-6 flex items-start gap-4 rounded-xl border border-dashed border-amber-500 bg-amber-50 p-5">
        <Construction className="mt-0.5 size-6 shrink-0 text-amber-700" aria-hidden="true" />
        <div>
          <p className="font-semibold text-amber-900">Not available yet</p>
          <p className="mt-1 text-sm text-amber-900">
            This screen is part of the {release} release and is not built yet.
          </p>
        </div>
      </div>
    </section>
  );
}
