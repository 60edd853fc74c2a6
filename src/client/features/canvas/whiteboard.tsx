import { useLingui } from '@lingui/react/macro';
import { useReducer, useState } from 'react';
import { INITIAL_BRUSH, brushReducer, cursorFor } from './brush.ts';
import { ClearConfirmation } from './clear-confirmation.tsx';
import { Toolbar } from './toolbar.tsx';
import { useWhiteboard } from './use-whiteboard.ts';

/**
 * SPEC §2 Canvas: the toolbar above a whiteboard that fills the rest of the
 * space. Two canvases: the drawing, and a transparent overlay on top showing
 * the stroke being drawn (it does not take the pointer).
 */
export function Whiteboard({ storageKey, title }: { storageKey: string; title: string }) {
  const { t } = useLingui();
  const [brush, dispatch] = useReducer(brushReducer, INITIAL_BRUSH);
  const { boardRef, overlayRef, status, undo, redo, clear, save } = useWhiteboard(storageKey, brush);
  const [isConfirmingClear, setIsConfirmingClear] = useState(false);
  // Nothing to lose (no strokes, not even undone ones): clear at once, e.g. an unreadable stored item.
  const hasHistory = status.canUndo || status.canRedo;
  return (
    <>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        {/* Phones need the room for the tools; the title stays for screen readers. */}
        <h1 className="text-xl font-bold text-fg max-sm:sr-only">{title}</h1>
        <Toolbar
          brush={brush}
          status={status}
          onBrushChange={dispatch}
          onUndo={undo}
          onRedo={redo}
          onClear={() => (hasHistory ? setIsConfirmingClear(true) : clear())}
          onSave={() => void save()}
        />
      </div>
      {/* A drawing is not text: it keeps its left and right in a right-to-left page. */}
      <div
        dir="ltr"
        className="relative min-h-0 flex-1 overflow-hidden rounded-xl border border-line-strong bg-surface shadow-sm"
      >
        <canvas
          ref={boardRef}
          role="img"
          aria-label={
            status.isBlank
              ? t`Whiteboard, empty. Draw with a mouse, a pen or a finger.`
              : t`Whiteboard with your drawing. Draw with a mouse, a pen or a finger.`
          }
          data-testid="whiteboard"
          // Focused by the engine when a stroke starts (so Ctrl/Cmd+Z reaches it), not a Tab stop.
          tabIndex={-1}
          style={{ cursor: cursorFor(brush.mode) }}
          // touch-action none: a finger draws instead of scrolling or zooming the page.
          className="absolute inset-0 block size-full touch-none outline-none select-none"
        />
        <canvas ref={overlayRef} aria-hidden="true" className="pointer-events-none absolute inset-0 block size-full" />
      </div>
      {isConfirmingClear ? <ClearConfirmation onConfirm={clear} onClose={() => setIsConfirmingClear(false)} /> : null}
    </>
  );
}
