import { t } from '@lingui/core/macro';
import { useEffect, useState } from 'react';
import { getRosterImport } from '#shared/contract/classes';
import type { RosterImportCredential, RosterImportStatus } from '#shared/roster-import';
import { ApiError, call } from '../../lib/api.ts';
import { rosterImportFailureText } from './roster-import-texts.ts';

/** How often the progress is read while the import runs. */
export const IMPORT_POLL_MS = 700;
export type RosterImportProgress =
  | { state: 'hashing' | 'writing'; done: number; total: number }
  | { state: 'done'; imported: number; credentials: RosterImportCredential[] }
  /** `error` and `reason` (why, from the status's failure code) in the client's words. */
  | { state: 'failed'; error: string; reason?: string };

type Listener = (progress: RosterImportProgress) => void;
/** One import's reads, shared by whichever dialog shows it. */
interface Follow {
  listeners: Set<Listener>;
  /** The end, when no dialog was open to receive it. */
  unseenEnd: RosterImportProgress | null;
}

/**
 * The page's followed imports. The server answers the passwords once, to the read that sees the
 * import done, so a read is never cancelled: one answered after its dialog closed waits here for
 * the next opening instead of being lost (StrictMode's second mount shares it the same way).
 */
const follows = new Map<string, Follow>();

function readProgress(status: RosterImportStatus): RosterImportProgress {
  if (status.state === 'done') {
    return { state: 'done', imported: status.imported ?? 0, credentials: status.credentials ?? [] };
  }
  if (status.state === 'failed') {
    return {
      state: 'failed',
      error: t`The import failed. Nothing was imported.`,
      ...(status.failure ? { reason: rosterImportFailureText(status.failure) } : {}),
    };
  }
  return { state: status.state, done: status.done, total: status.total };
}

async function poll(importId: string, follow: Follow) {
  const publish = (progress: RosterImportProgress, hasEnded: boolean) => {
    if (hasEnded && follow.listeners.size === 0) follow.unseenEnd = progress;
    else if (hasEnded) follows.delete(importId);
    for (const listener of follow.listeners) listener(progress);
  };
  for (;;) {
    let progress: RosterImportProgress;
    try {
      progress = readProgress((await call(getRosterImport, { params: { id: importId } })).data);
    } catch (error) {
      publish(
        {
          state: 'failed',
          error:
            error instanceof ApiError
              ? error.message
              : t`The import's progress could not be read. Open the dialog again to see how it ended.`,
        },
        true,
      );
      return;
    }
    const hasEnded = progress.state === 'done' || progress.state === 'failed';
    publish(progress, hasEnded);
    if (hasEnded) return;
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    // Nobody is watching: stop reading; the next opening starts again (nothing was taken).
    if (follow.listeners.size === 0) {
      follows.delete(importId);
      return;
    }
  }
}

/** Follows an import until it ends; the passwords arrive once, with the end, and are kept by the caller. */
export function useRosterImportProgress(importId: string | null): RosterImportProgress | null {
  // An end that came while no dialog was open is shown at once and never read again (the
  // server would answer it without the passwords); StrictMode's second effect sees it too.
  const [unseenEnd] = useState(() => {
    const end = importId === null ? null : follows.get(importId)?.unseenEnd;
    return end ? { importId, end } : null;
  });
  const [progress, setProgress] = useState<RosterImportProgress | null>(unseenEnd?.end ?? null);
  useEffect(() => {
    if (importId === null) return;
    if (unseenEnd?.importId === importId) {
      follows.delete(importId);
      return;
    }
    let follow = follows.get(importId);
    if (!follow) {
      follow = { listeners: new Set(), unseenEnd: null };
      follows.set(importId, follow);
      void poll(importId, follow);
    }
    const listeners = follow.listeners;
    listeners.add(setProgress);
    return () => {
      listeners.delete(setProgress);
    };
  }, [importId, unseenEnd]);
  return progress;
}
