import { useLingui } from '@lingui/react/macro';
import { Check, Copy, KeyRound, RefreshCw, Power } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { changeClass } from '#shared/contract/classes';
import type { TeacherClass } from '#shared/classes';
import { Button } from '../../components/ui/button.tsx';
import { call } from '../../lib/api.ts';
import { isolate } from '../../lib/format.ts';
import { useClassMutation } from './classes-queries.ts';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';

/** How long "Copied" stays beside the button. */
const COPIED_MS = 4000;

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The class's join code (decision 031): shown grouped as the server presents it, copied with
 * one button (or selected for copying by hand where the clipboard is refused), rotated or
 * turned off after a question; "Turn on" gives a new code.
 */
export function JoinCodePanel({ entry }: { entry: TeacherClass }) {
  const codeRef = useRef<HTMLInputElement>(null);
  // Which code the outcome is of: a new code is not the one copied.
  const [copied, setCopied] = useState<{ code: string; state: CopyState } | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const { t } = useLingui();
  const change = useClassMutation(
    (kind: 'rotate-code' | 'turn-off-code') => call(changeClass[kind], { params: { id: entry._id } }),
    (kind, changed) => {
      // A code inside a sentence keeps its own direction (issue 32 point 6): isolated, as are names.
      const newCode = isolate(changed.joinCode ?? '');
      if (kind === 'turn-off-code') return t`Join code turned off`;
      // "Turn on" rotates too: a class without a code gets a new one.
      return code ? t`New join code made: the old one no longer works` : t`Join code turned on: ${newCode}`;
    },
  );
  const code = entry.joinCode;
  const copyState: CopyState = copied && copied.code === code ? copied.state : 'idle';

  useEffect(() => {
    if (copyState !== 'copied') return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copyState]);

  const handleCopy = async () => {
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code);
      setCopied({ code, state: 'copied' });
    } catch {
      // No clipboard (an insecure origin, a refused permission): the code selected, for Ctrl+C.
      codeRef.current?.focus();
      codeRef.current?.select();
      setCopied({ code, state: 'failed' });
    }
  };

  const askRotate = () => {
    const code = isolate(entry.joinCode ?? '');
    setPending({
      title: t`Give the class a new code?`,
      description: t`The code ${code} stops working at once. Students who joined stay in the class.`,
      confirmLabel: t`Rotate code`,
      run: () => change.mutate('rotate-code'),
    });
  };
  const className = isolate(entry.name);
  const askTurnOff = () =>
    setPending({
      title: t`Turn off the join code?`,
      description: t`No one can join ${className} with a code until you turn it on again, which makes a new code.`,
      confirmLabel: t`Turn off code`,
      run: () => change.mutate('turn-off-code'),
    });

  return (
    <div className="flex flex-col gap-3">
      {code ? (
        <>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <label htmlFor="join-code" className="sr-only">
              {t`Join code`}
            </label>
            <input
              id="join-code"
              ref={codeRef}
              readOnly
              value={code}
              onFocus={(event) => event.currentTarget.select()}
              // A code reads left to right in every language: "K7MQ-2XHD", never "2XHD-K7MQ".
              dir="ltr"
              className="w-full rounded-lg border border-line-strong bg-surface px-3 py-2 text-center font-mono text-2xl font-semibold tracking-widest text-fg sm:w-56"
            />
            <Button variant="secondary" onClick={() => void handleCopy()}>
              {copyState === 'copied' ? (
                <Check className="size-4" aria-hidden="true" />
              ) : (
                <Copy className="size-4" aria-hidden="true" />
              )}
              {t`Copy`}
            </Button>
          </div>
          {entry.isArchived ? (
            <p className="text-sm text-warning">
              {t`The class is archived: its code admits no one until you unarchive it.`}
            </p>
          ) : (
            <p className="text-sm text-muted">
              {t`Students type it on their “My classes” page, in any case, with or without the dash.`}
            </p>
          )}
        </>
      ) : (
        <p className="text-sm text-muted">{t`The join code is turned off: no one can join with a code.`}</p>
      )}
      {/* Always in the page, so a screen reader hears what changes in it. */}
      <p role="status" className="min-h-5 text-sm font-semibold">
        {copyState === 'copied' ? (
          <span className="text-success">{t`Copied`}</span>
        ) : copyState === 'failed' ? (
          <span className="text-danger">
            {t`The code could not be copied: it is selected, press Ctrl+C (⌘C) to copy it.`}
          </span>
        ) : null}
      </p>
      <div className="flex flex-wrap gap-2">
        {code ? (
          <>
            <Button variant="secondary" size="sm" disabled={change.isPending} onClick={askRotate}>
              <RefreshCw className="size-4" aria-hidden="true" />
              {t`Rotate code`}
            </Button>
            <Button variant="secondary" size="sm" disabled={change.isPending} onClick={askTurnOff}>
              <Power className="size-4" aria-hidden="true" />
              {t`Turn off code`}
            </Button>
          </>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            disabled={change.isPending}
            onClick={() => change.mutate('rotate-code')}
          >
            <KeyRound className="size-4" aria-hidden="true" />
            {t({ comment: 'Button: turn the join code on again (makes a new code)', message: 'Turn on' })}
          </Button>
        )}
      </div>
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </div>
  );
}
