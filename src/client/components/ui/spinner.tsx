/** The one spinning ring of the app; decorative, so the words beside it carry the meaning. */
export function Spinner({ className = 'size-6' }: { className?: string }) {
  return (
    <span
      className={`inline-block shrink-0 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600 ${className}`}
      aria-hidden="true"
    />
  );
}

/** A spinner with its announcement, for content that is on its way. */
export function LoadingStatus({ children, className = '' }: { children: React.ReactNode; className?: string }) {
  return (
    <p role="status" className={`flex items-center gap-3 text-muted ${className}`}>
      <Spinner />
      {children}
    </p>
  );
}
