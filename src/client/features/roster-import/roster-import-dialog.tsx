import { Trans, useLingui } from '@lingui/react/macro';
import { Upload } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';

type ClassRef = { classId: string; className: string };

// The steps (the CSV parser, the tables, the sheet) load when the dialog opens, so the class
// page's budget holds only this button (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION).
const RosterImportSteps = lazy(async () => ({
  default: (await import('./roster-import-steps.tsx')).RosterImportSteps,
}));

/**
 * Imports a class list from a CSV file (issue 19 point 6, decision 034): choose or paste →
 * check → the rows with their problems → confirm → progress → the generated passwords, once.
 */
export function RosterImportButton({
  classId,
  className,
  onImported,
}: ClassRef & { /** After the rows are written: the class page refreshes its roster. */ onImported?(): void }) {
  const [isOpen, setIsOpen] = useState(false);
  const { t } = useLingui();
  return (
    <>
      <Button variant="secondary" onClick={() => setIsOpen(true)}>
        <Upload className="size-4" aria-hidden="true" />
        {t`Import students (CSV)`}
      </Button>
      {isOpen ? (
        <ModalDialog
          title={
            // "10-A" stays whole: a hyphen is a line break only inside a name too long for a line.
            <Trans>
              Import students into <span className="inline-block max-w-full">{className}</span>
            </Trans>
          }
          description={t({
            comment:
              'Name the columns as the import reads them in your language (src/shared/roster-import.ts, TRANSLATED_HEADERS); the file may name them in English, Spanish or Arabic.',
            message:
              'A CSV file with the columns Name, Roll number, Email, Parent name, Parent email and, if you like, Password (blank: one is generated). The column names may be in English, Spanish or Arabic.',
          })}
          widthClassName="w-[min(64rem,calc(100%-1rem))]"
          onClose={() => setIsOpen(false)}
        >
          {(close) => (
            <Suspense fallback={<p className="mt-4 text-sm text-muted">{t`Loading…`}</p>}>
              <RosterImportSteps classId={classId} className={className} onImported={onImported} onClose={close} />
            </Suspense>
          )}
        </ModalDialog>
      ) : null}
    </>
  );
}
