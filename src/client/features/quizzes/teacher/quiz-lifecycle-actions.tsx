import { Copy, Pencil, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';

// The dialogs and their forms load when the teacher asks for one (scripts/check-bundle.mjs,
// LOADED_ON_USER_ACTION): the analytics page stays within its budget.
const DuplicateQuizDialog = lazy(async () => ({
  default: (await import('./quiz-lifecycle-dialogs.tsx')).DuplicateQuizDialog,
}));
const DeleteQuizDialog = lazy(async () => ({
  default: (await import('./quiz-lifecycle-dialogs.tsx')).DeleteQuizDialog,
}));

/** The analytics page's Edit, Duplicate and Delete (decision 036). */
export function QuizLifecycleActions({ quiz }: { quiz: TeacherQuizDetail }) {
  const [open, setOpen] = useState<'duplicate' | 'delete' | null>(null);
  return (
    <div className="flex flex-wrap gap-2">
      {quiz.archivedAt ? null : (
        <Link
          to={`/dashboard/teacher/edit-quiz/${encodeURIComponent(quiz._id)}`}
          className={buttonVariants({ variant: 'secondary' })}
        >
          <Pencil className="size-4" aria-hidden="true" />
          Edit
        </Link>
      )}
      <Button variant="secondary" onClick={() => setOpen('duplicate')}>
        <Copy className="size-4" aria-hidden="true" />
        Duplicate
      </Button>
      <Button variant="danger" onClick={() => setOpen('delete')}>
        <Trash2 className="size-4" aria-hidden="true" />
        Delete
      </Button>
      <Suspense fallback={null}>
        {open === 'duplicate' ? <DuplicateQuizDialog quiz={quiz} onClose={() => setOpen(null)} /> : null}
        {open === 'delete' ? <DeleteQuizDialog quiz={quiz} onClose={() => setOpen(null)} /> : null}
      </Suspense>
    </div>
  );
}
