import { useAppStore } from '../../stores/app-store.ts';
import { shellLoadingText } from './shell-texts.ts';
import { Spinner } from './spinner.tsx';

/**
 * The global loading indicator, driven by the store's loading flag (SPEC §3). The router's root
 * renders it, outside the I18nProvider: its word comes from the page's language (shell-texts.ts).
 */
export function LoadingOverlay() {
  const isLoading = useAppStore((state) => state.loading.isLoading);
  if (!isLoading) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-[100] flex items-center justify-center bg-surface/60 backdrop-blur-[1px]"
      data-testid="loading-overlay"
    >
      <Spinner className="size-12" />
      <span className="sr-only">{shellLoadingText()}</span>
    </div>
  );
}
