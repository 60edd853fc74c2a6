import { FileUp } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { TypedQuestionInput } from '#shared/question-types';
import { Button } from '../../../components/ui/button.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';

// The readers and the steps load when the dialog opens (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION).
const ImportQuestionsSteps = lazy(async () => ({
  default: (await import('./import-questions-dialog.tsx')).ImportQuestionsSteps,
}));

/** "Import questions" of the quiz editor: the checked questions are appended to the editor's. */
export function ImportQuestionsButton({ onImport }: { onImport(questions: TypedQuestionInput[]): void }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setIsOpen(true)}>
        <FileUp className="size-4" aria-hidden="true" />
        Import questions
      </Button>
      {isOpen ? (
        <ModalDialog
          title="Import questions"
          description="A GIFT file (Moodle’s text format) or an Aiken file. Check it first: every problem is listed with its line."
          widthClassName="w-[min(48rem,calc(100%-1rem))]"
          onClose={() => setIsOpen(false)}
        >
          {(close) => (
            <Suspense fallback={<p className="mt-4 text-sm text-muted">Loading…</p>}>
              <ImportQuestionsSteps onImport={onImport} onClose={close} />
            </Suspense>
          )}
        </ModalDialog>
      ) : null}
    </>
  );
}
