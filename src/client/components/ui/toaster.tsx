import { CircleAlert, CircleCheck } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { resolveValue, useToaster, type DefaultToastOptions, type Toast } from 'react-hot-toast/headless';
import { Spinner } from './spinner.tsx';

/** Space between stacked toasts, in px (react-hot-toast's default). */
const GUTTER = 8;

/**
 * The toasts (SPEC §8), drawn by us from react-hot-toast's headless store: its
 * own <Toaster> styles itself by writing <style> elements (goober), which our
 * Content-Security-Policy refuses (style-src 'self', decision 018). Same
 * behaviour: top centre, newest first, paused while hovered, at most 20.
 * Call toast() from 'react-hot-toast/headless' (one store for both; eslint
 * refuses the main entry).
 */
export function Toaster({ toastOptions }: { toastOptions?: DefaultToastOptions }) {
  const { toasts, handlers } = useToaster(toastOptions);
  return (
    <div
      // Below the dashboard header (its height in --app-header-height), so a toast never covers the user's name.
      className="pointer-events-none fixed inset-x-4 top-[calc(var(--app-header-height,0px)+1rem)] bottom-4 z-[9999]"
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
    >
      {toasts.map((toast) => (
        <ToastFrame
          key={toast.id}
          toast={toast}
          offset={handlers.calculateOffset(toast, { gutter: GUTTER })}
          onHeight={handlers.updateHeight}
        />
      ))}
    </div>
  );
}

function ToastFrame({
  toast,
  offset,
  onHeight,
}: {
  toast: Toast;
  offset: number;
  onHeight: (id: string, height: number) => void;
}) {
  const frameRef = useRef<HTMLDivElement>(null);
  const measure = useCallback(() => {
    if (frameRef.current) onHeight(toast.id, frameRef.current.getBoundingClientRect().height);
  }, [onHeight, toast.id]);
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    measure();
    const observer = new MutationObserver(measure);
    observer.observe(frame, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [measure]);

  return (
    <div
      ref={frameRef}
      // Set through the CSSOM (React's style prop), which the CSP allows: only style elements and attributes are refused.
      style={{ transform: `translateY(${offset}px)` }}
      className={`absolute inset-x-0 top-0 flex justify-center transition-transform duration-200 ${toast.visible ? 'z-[9999]' : ''}`}
    >
      <div
        className="toast pointer-events-auto flex max-w-[350px] items-center gap-2 rounded-lg bg-surface px-3 py-2 leading-snug text-fg shadow-lg ring-1 ring-black/5"
        data-state={toast.height === undefined ? 'measuring' : toast.visible ? 'open' : 'closing'}
        // A dismissed toast is leaving: not read out again while it slides away.
        aria-hidden={toast.visible ? undefined : true}
      >
        <ToastIcon toast={toast} />
        <div className="mx-1 my-1 flex-1 whitespace-pre-line" {...toast.ariaProps}>
          {resolveValue(toast.message, toast)}
        </div>
      </div>
    </div>
  );
}

function ToastIcon({ toast }: { toast: Toast }) {
  if (toast.icon !== undefined)
    return typeof toast.icon === 'string' ? <span aria-hidden="true">{toast.icon}</span> : toast.icon;
  if (toast.type === 'success') return <CircleCheck className="size-5 shrink-0 text-success" aria-hidden="true" />;
  if (toast.type === 'error') return <CircleAlert className="size-5 shrink-0 text-danger" aria-hidden="true" />;
  if (toast.type === 'loading') return <Spinner className="size-5" />;
  return null;
}
