import { t } from '@lingui/core/macro';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
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

/** One import's reads, shared by whichever dialog shows it. */
interface Follow {
  listeners: Set<() => void>;
  progress: RosterImportProgress | null;
  /** Its end has been on a screen: it goes with the last dialog showing it. */
  isSeen: boolean;
}

/**
 * The page's followed imports. The server answers the passwords once, to the read that sees the
 * import done, so a read is never cancelled: an end that comes while no dialog is open stays here
 * until one shows it (a dialog closed meanwhile, StrictMode's second mount, a dialog mounting
 * between its render and its effects).
 */
const follows = new Map<string, Follow>();

const hasEnded = (progress: RosterImportProgress | null) => progress?.state === 'done' || progress?.state === 'failed';

/** A read that may succeed on the next try: no answer, the server's trouble, or a throttle. */
const isPassing = (error: ApiError) =>
  error.code === 'UNREACHABLE' || error.status === undefined || error.status >= 500 || error.status === 429;

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
  const publish = (progress: RosterImportProgress) => {
    follow.progress = progress;
    for (const listener of follow.listeners) listener();
  };
  for (;;) {
    try {
      publish(readProgress((await call(getRosterImport, { params: { id: importId } })).data));
    } catch (error) {
      // A refusal ends the following (the import is not this person's, or gone); a lost
      // connection or a server's error is read again, and the passwords are still there.
      if (!(error instanceof ApiError && isPassing(error))) {
        publish({
          state: 'failed',
          error:
            error instanceof ApiError
              ? error.message
              : t`The import's progress could not be read. Open the dialog again to see how it ended.`,
        });
        return;
      }
    }
    if (hasEnded(follow.progress)) return;
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    // Nobody is watching: stop reading; the next opening starts again (nothing was taken).
    if (follow.listeners.size === 0) {
      follows.delete(importId);
      return;
    }
  }
}

function subscribe(importId: string, onChange: () => void): () => void {
  let follow = follows.get(importId);
  if (!follow) {
    follow = { listeners: new Set(), progress: null, isSeen: false };
    follows.set(importId, follow);
    void poll(importId, follow);
  }
  const followed = follow;
  followed.listeners.add(onChange);
  return () => {
    followed.listeners.delete(onChange);
    // Later, not now: StrictMode's second mount, or a dialog opened again at once, comes back to it.
    setTimeout(() => {
      if (followed.listeners.size === 0 && followed.isSeen && follows.get(importId) === followed) {
        follows.delete(importId);
      }
    }, 0);
  };
}

const noSubscription = () => () => undefined;

/** Follows an import until it ends; the passwords arrive once, with the end. */
export function useRosterImportProgress(importId: string | null): RosterImportProgress | null {
  const subscribeTo = useMemo(
    () => (importId === null ? noSubscription : (onChange: () => void) => subscribe(importId, onChange)),
    [importId],
  );
  const progress = useSyncExternalStore(subscribeTo, () =>
    importId === null ? null : (follows.get(importId)?.progress ?? null),
  );
  // On screen now: the end leaves memory with the last dialog that shows it.
  useEffect(() => {
    const follow = importId === null ? undefined : follows.get(importId);
    if (follow && hasEnded(progress) && follow.progress === progress) follow.isSeen = true;
  }, [importId, progress]);
  return progress;
}
