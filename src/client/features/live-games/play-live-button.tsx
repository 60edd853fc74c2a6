import { Trans } from '@lingui/react/macro';
import { Radio } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';

// Loaded when a teacher asks to play (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION): the quiz
// list and the analytics page carry only this button.
export const PlayLiveDialog = lazy(async () => ({ default: (await import('./play-live-dialog.tsx')).PlayLiveDialog }));

/** "Play live" on one of the teacher's quizzes (issue 34 point 2): opens the dialog that makes a game. */
export function PlayLiveButton({
  quiz,
  size = 'sm',
  describedBy,
}: {
  quiz: { _id: string; title: string; classId?: string };
  size?: 'sm' | 'md';
  /** The quiz's title on a list of quizzes, where every card has this button. */
  describedBy?: string;
}) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size={size} aria-describedby={describedBy} onClick={() => setIsOpen(true)}>
        <Radio className="size-4" aria-hidden="true" />
        <Trans>Play live</Trans>
      </Button>
      {isOpen ? (
        <Suspense fallback={null}>
          <PlayLiveDialog quiz={quiz} onClose={() => setIsOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
