import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { playLivePath } from '../../live-games/play-live-path.ts';

/**
 * The analytics page's Play live (issue 34: the quiz list opens its dialog, `?play=`), Edit,
 * Duplicate and Delete (decision 036): links to the edit screen,
 * which opens the Duplicate or Delete dialog over the quiz when asked (`?dialog=`), so the
 * analytics page loads none of their code (its budget, decision 014).
 */
export function QuizLifecycleActions({ quiz }: { quiz: TeacherQuizDetail }) {
  const path = `/dashboard/teacher/edit-quiz/${quiz._id}`;
  const secondary = buttonVariants({ variant: 'secondary' });
  return (
    <div className="flex flex-wrap gap-2">
      {quiz.archivedAt ? null : (
        <Link to={playLivePath(quiz._id)} state={{ quizTitle: quiz.title }} className={secondary}>
          <Trans>Play live</Trans>
        </Link>
      )}
      {quiz.archivedAt ? null : (
        <Link to={path} className={secondary}>
          <Trans>Edit</Trans>
        </Link>
      )}
      <Link to={`${path}?dialog=duplicate`} className={secondary}>
        <Trans>Duplicate</Trans>
      </Link>
      <Link to={`${path}?dialog=delete`} className={buttonVariants({ variant: 'danger' })}>
        <Trans>Delete</Trans>
      </Link>
    </div>
  );
}
