import { Trans } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import type { TypedQuestionInput } from '#shared/question-types';
import { Button } from '../../../components/ui/button.tsx';

// The dialog, the readers and the steps load when it opens (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION).
const ImportQuestionsDialog = lazy(async () => ({
  default: (await import('./import-questions-dialog.tsx')).ImportQuestionsDialog,
}));

/** "Import questions" of the quiz editor: the checked questions are appended to the editor's. */
export function ImportQuestionsButton({ onImport }: { onImport(questions: TypedQuestionInput[]): void }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setIsOpen(true)}>
        <Trans>Import questions</Trans>
      </Button>
      {isOpen ? (
        <Suspense fallback={null}>
          <ImportQuestionsDialog onImport={onImport} onClose={() => setIsOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
