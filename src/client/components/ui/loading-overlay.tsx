import { useAppStore } from '../../stores/app-store.ts';

/** The global loading indicator, driven by the store's loading flag (SPEC §3). */
export function LoadingOverlay() {
  const isLoading = useAppStore((state) => state.loading.isLoading);
  if (!isLoading) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-[100] flex items-center justify-center bg-white/60 backdrop-blur-[1px]"
      data-testid="loading-overlay"
    >
      <span
        className="size-12 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600"
        aria-hidden="true"
      />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
