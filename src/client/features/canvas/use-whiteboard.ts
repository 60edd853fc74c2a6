import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import toast from 'react-hot-toast/headless';
import { createAutosave } from './autosave.ts';
import { AUTOSAVE_DELAY_MS, SAVED_FILE_NAME, paintOf, type Brush } from './brush.ts';
import { loadDrawing, removeDrawing, saveDrawing, type SaveOutcome } from './canvas-storage.ts';
import { whiteboardShortcut } from './keyboard-shortcuts.ts';
import { WhiteboardEngine } from './whiteboard-engine.ts';
import { downloadBlob } from '../../lib/download-file.ts';

const STORAGE_TOAST_ID = 'whiteboard-storage';

/** What a failed autosave tells the person (once, until saving works again). */
const SAVE_PROBLEMS: Partial<Record<SaveOutcome, MessageDescriptor>> = {
  'too-large': msg`This drawing is too large to keep in this browser. Use Save to download it.`,
  unavailable: msg`This browser does not let the whiteboard keep your drawing. Use Save to download it.`,
};

/**
 * One whiteboard bound to one stored drawing (the caller remounts it for
 * another key): the engine, the autosave 400 ms after the last movement, the
 * keyboard shortcuts, and the toolbar's actions.
 */
export function useWhiteboard(storageKey: string, brush: Brush) {
  const boardRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);

  const [{ engine, autosave }] = useState(() => {
    let lastOutcome: SaveOutcome = 'saved';
    const persist = () => {
      const history = engine.getHistory();
      // Nothing to keep (Clear, or nothing drawn yet): no stored item.
      if (history.strokes.length === 0) return removeDrawing(localStorage, storageKey);
      const outcome = saveDrawing(localStorage, storageKey, history);
      const problem = SAVE_PROBLEMS[outcome];
      if (problem && outcome !== lastOutcome) toast.error(i18n._(problem), { id: STORAGE_TOAST_ID });
      lastOutcome = outcome;
    };
    const autosave = createAutosave(persist, AUTOSAVE_DELAY_MS);
    const engine = new WhiteboardEngine({
      history: loadDrawing(localStorage, storageKey),
      onMovement: () => autosave.touch(),
      onHistoryChange: (history) => {
        if (history.strokes.length > 0) return autosave.touch();
        // SPEC §4: Clear removes the stored image at once.
        autosave.cancel();
        removeDrawing(localStorage, storageKey);
      },
    });
    return { engine, autosave };
  });

  const status = useSyncExternalStore(engine.subscribe, engine.getStatus);

  useEffect(() => {
    engine.setPaint(paintOf(brush));
  }, [engine, brush]);

  useEffect(() => {
    const board = boardRef.current;
    const overlay = overlayRef.current;
    if (!board || !overlay) return;
    return engine.attach({ board, overlay });
  }, [engine]);

  // A reload or a closed tab within 400 ms of the last stroke still keeps it.
  useEffect(() => {
    const flush = () => autosave.flush();
    const handleVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', handleVisibility);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', handleVisibility);
      flush();
    };
  }, [autosave]);

  // Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z and Ctrl+Y redo, except while typing text or behind a modal.
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      const action = whiteboardShortcut(event, boardRef.current);
      if (!action) return;
      event.preventDefault();
      if (action === 'undo') engine.undo();
      else engine.redo();
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [engine]);

  const save = async () => {
    const blob = await engine.toPngBlob();
    if (blob) downloadBlob(blob, SAVED_FILE_NAME);
    else toast.error(t`The drawing could not be turned into a picture. Please try again.`);
  };

  return {
    boardRef,
    overlayRef,
    status,
    undo: () => engine.undo(),
    redo: () => engine.redo(),
    clear: () => {
      engine.clear();
      // Also when the history was already empty (a stored item it could not read).
      autosave.cancel();
      removeDrawing(localStorage, storageKey);
    },
    save,
  };
}
