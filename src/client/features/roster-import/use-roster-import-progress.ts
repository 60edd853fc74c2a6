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

/**
 * Follows an import until it ends. The passwords arrive once, on the read that sees it done,
 * so they are kept here and never read again.
 */
export function useRosterImportProgress(importId: string | null): RosterImportProgress | null {
  const [progress, setProgress] = useState<RosterImportProgress | null>(null);
  useEffect(() => {
    if (importId === null) return;
    const controller = new AbortController();
    const wait = () => new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    const follow = async () => {
      for (;;) {
        let status: RosterImportStatus;
        try {
          status = (await call(getRosterImport, { params: { id: importId } }, { signal: controller.signal })).data;
        } catch (error) {
          if (controller.signal.aborted) return;
          setProgress({
            state: 'failed',
            error:
              error instanceof ApiError
                ? error.message
                : t`The import's progress could not be read. Open the dialog again to see how it ended.`,
          });
          return;
        }
        if (controller.signal.aborted) return;
        if (status.state === 'done') {
          setProgress({ state: 'done', imported: status.imported ?? 0, credentials: status.credentials ?? [] });
          return;
        }
        if (status.state === 'failed') {
          setProgress({
            state: 'failed',
            error: t`The import failed. Nothing was imported.`,
            ...(status.failure ? { reason: rosterImportFailureText(status.failure) } : {}),
          });
          return;
        }
        setProgress({ state: status.state, done: status.done, total: status.total });
        await wait();
      }
    };
    void follow();
    return () => controller.abort();
  }, [importId]);
  return progress;
}
