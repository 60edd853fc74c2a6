import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, FileText, Link2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { StudentAssignment } from '#shared/assignments';
import { MarkdownText } from '../../components/markdown-text.tsx';
import { BackLink } from '../../components/ui/back-link.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { LoadFailure } from '../../components/ui/status-cards.tsx';
import { cn } from '../../lib/cn.ts';
import { formatList, isolate } from '../../lib/format.ts';
import { useProfile } from '../session/profile.ts';
import { Badge, DueText, GROUP_TITLES } from './student-assignment-parts.tsx';
import { STUDENT_ASSIGNMENTS_PATH, studentAssignmentQueries } from './student-assignment-queries.ts';
import { HandedInWork, HandInEditor, ReturnedGrade } from './student-hand-in.tsx';
import { CommentThread } from './comment-thread.tsx';

/** /dashboard/student/assignments/:id: the instructions, the student's work and, once returned, the grade. */
export function Component() {
  const { id = '' } = useParams();
  const assignment = useQuery(studentAssignmentQueries.detail(id));
  const { t } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageTitle>{assignment.data ? isolate(assignment.data.title) : t`Assignment`}</PageTitle>
      <BackLink to={STUDENT_ASSIGNMENTS_PATH}>
        <Trans>All assignments</Trans>
      </BackLink>
      {assignment.isPending ? (
        <LoadingStatus>{t`Loading the assignment…`}</LoadingStatus>
      ) : assignment.isError ? (
        <>
          <h1 className="text-2xl font-bold text-fg">{t`This assignment cannot be opened`}</h1>
          <LoadFailure
            title={t`The assignment could not be loaded.`}
            message={assignment.error.message}
            onRetry={() => void assignment.refetch()}
          />
        </>
      ) : (
        <AssignmentScreen assignment={assignment.data} />
      )}
    </div>
  );
}

function AssignmentScreen({ assignment }: { assignment: StudentAssignment }) {
  const { t } = useLingui();
  const student = useProfile('student');
  const classes = formatList(assignment.classes.map((entry) => entry.name));
  const { points, handIn } = assignment;
  const isHandedIn = handIn !== null && handIn.state !== 'draft';
  return (
    <>
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold wrap-anywhere text-fg">{assignment.title}</h1>
        <p className="text-sm text-muted">
          <bdi>{classes}</bdi>
          {' · '}
          {points === null ? (
            <Trans comment="An assignment without points">Ungraded</Trans>
          ) : (
            <Plural value={points} one="Worth # point" other="Worth # points" />
          )}
        </p>
        <p className="flex flex-wrap items-center gap-2 text-fg">
          <span className="font-semibold">
            <DueText dueAt={assignment.dueAt} />
          </span>
          <Badge tone={assignment.group === 'missing' ? 'danger' : 'muted'}>{t(GROUP_TITLES[assignment.group])}</Badge>
          {handIn?.late ? (
            <Badge tone="warning">
              <Trans comment="Badge: handed in after the due time">Late</Trans>
            </Badge>
          ) : null}
        </p>
        <LateRule assignment={assignment} />
      </header>

      <section
        aria-labelledby="instructions-title"
        className={cn(cardVariants({ padding: 'md' }), 'flex flex-col gap-3')}
      >
        <h2 id="instructions-title" className="text-lg font-bold text-fg">
          {t`Instructions`}
        </h2>
        {assignment.instructions.trim() ? (
          <MarkdownText source={assignment.instructions} />
        ) : (
          <p className="text-muted">{t`No instructions: the title says it all.`}</p>
        )}
        <Attachments assignment={assignment} />
      </section>

      {handIn?.state === 'returned' ? <ReturnedGrade assignment={assignment} handIn={handIn} /> : null}

      <section aria-labelledby="your-work-title" className={cn(cardVariants({ padding: 'md' }), 'flex flex-col gap-4')}>
        <h2 id="your-work-title" className="text-lg font-bold text-fg">
          {t`Your work`}
        </h2>
        {isHandedIn ? (
          <HandedInWork assignment={assignment} handIn={handIn} />
        ) : student ? (
          <HandInEditor assignment={assignment} studentId={student._id} />
        ) : null}
      </section>

      <CommentThread thread={{ assignmentId: assignment._id }} />
    </>
  );
}

/** The late rule in plain words, from the due time, the rule and the clock at this render. */
function LateRule({ assignment }: { assignment: StudentAssignment }) {
  const { t } = useLingui();
  const [now] = useState(() => Date.now());
  const { dueAt, acceptLate, handIn } = assignment;
  if (handIn !== null && handIn.state !== 'draft') return null;
  if (dueAt === null) return <p className="text-sm text-muted">{t`No due date: hand it in when it is ready.`}</p>;
  const isPastDue = Date.parse(dueAt) <= now;
  if (assignment.closed)
    return (
      <p role="note" className="rounded-lg bg-danger-soft p-3 text-sm font-semibold text-danger-strong">
        {t`The due time has passed and late work is not accepted: this assignment can no longer be handed in.`}
      </p>
    );
  if (isPastDue)
    return (
      <p role="note" className="rounded-lg bg-warning-soft p-3 text-sm text-warning">
        {t`The due time has passed. You can still hand it in: it will be marked late.`}
      </p>
    );
  return (
    <p className="text-sm text-muted">
      {acceptLate
        ? t`Work handed in after the due time is accepted and marked late.`
        : t`After the due time, work is no longer accepted.`}
    </p>
  );
}

/** The teacher's files (found in the library) and video links. */
function Attachments({ assignment }: { assignment: StudentAssignment }) {
  const { t } = useLingui();
  if (assignment.attachments.length === 0) return null;
  return (
    <div className="flex flex-col gap-2 border-t border-line pt-3">
      <h3 className="font-semibold text-fg">{t`Attachments`}</h3>
      <ul className="flex flex-col gap-2">
        {assignment.attachments.map((attachment) => (
          <li key={attachment._id} className="flex items-center gap-2">
            {attachment.kind === 'link' ? (
              <Link2 className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
            ) : (
              <FileText className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
            )}
            {/* A video link, or a file signed for this student (decision 061): opens even from
                another class's library. Without either, the file is found in their resources. */}
            {(attachment.linkUrl ?? attachment.fileUrl) ? (
              <a
                href={attachment.linkUrl ?? attachment.fileUrl ?? undefined}
                target="_blank"
                rel={attachment.kind === 'link' ? 'noopener noreferrer nofollow' : 'noopener noreferrer'}
                className="inline-flex items-center gap-1 font-semibold wrap-anywhere text-brand-700 underline"
              >
                <bdi>{attachment.fileName}</bdi>
                <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="sr-only"> {t`(opens in a new tab)`}</span>
              </a>
            ) : (
              <Link
                to={`/dashboard/student/resources?search=${encodeURIComponent(attachment.fileName)}`}
                className="font-semibold wrap-anywhere text-brand-700 underline"
              >
                <bdi>{attachment.fileName}</bdi>
                <span className="sr-only">{t`(in your class’s resources)`}</span>
              </Link>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
